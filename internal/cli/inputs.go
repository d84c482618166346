package cli

import (
	"fmt"
	"strconv"

	"github.com/sethvargo/go-githubactions"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report/github"
)

// AnnotationMode says where mismatch annotations go.
type AnnotationMode string

const (
	// AnnotateCheckRun attaches them to the check run (no per-step cap).
	AnnotateCheckRun AnnotationMode = "check-run"
	// AnnotateCommands prints workflow commands (10 per level per step).
	AnnotateCommands AnnotationMode = "commands"
	// AnnotateOff writes none.
	AnnotateOff AnnotationMode = "off"
)

// Inputs are the action inputs of action.yml, parsed: the Job they
// describe, and how the results are published.
type Inputs struct {
	gate.Job
	// Files are the JUnit, JSON and Markdown report paths.
	Files       Paths
	Token       string
	CheckName   string
	CheckRunID  int64
	ReportName  string
	Comment     github.CommentMode
	Annotations AnnotationMode
	// FullComment makes the sticky comment the whole report; the default
	// is the compact one, which links the check run and the job summary.
	FullComment bool
	// NoJobSummary leaves the job summary alone (job-summary: false).
	NoJobSummary bool
	// FindingAnnotations says which findings become annotations: all, or
	// only those on files the change touched (changed), or none.
	FindingAnnotations FindingMode
	// Explore is the number of streams to explore (0: none); ExploreOut
	// the folder for the candidate fixtures (empty: none written).
	Explore    int
	ExploreOut string
}

// FindingMode says which corpus findings become annotations.
type FindingMode string

const (
	FindingsAll     FindingMode = "all"
	FindingsChanged FindingMode = "changed"
	FindingsOff     FindingMode = "off"
)

// defaultCheckName is the check-name default of action.yml, used when the
// input is absent (a run outside the action runner).
const defaultCheckName = "DRP2 fixtures"

// readInputs reads the INPUT_* variables. The runner passes action.yml
// defaults as values, so an empty value means the user cleared the input;
// enums and numbers that do not parse are unusable input.
func readInputs(a *githubactions.Action) (Inputs, error) {
	in := Inputs{
		Files: Paths{JUnit: a.GetInput("junit-path"), JSON: a.GetInput("json-path"), Markdown: a.GetInput("markdown-path")},
		Job: gate.Job{
			Corpus:        a.GetInput("corpus"),
			CommandSchema: a.GetInput("command-schema"),
			FixtureSchema: a.GetInput("fixture-schema"),
			Paths:         gate.SplitList(a.GetInput("paths")),
			Name:          a.GetInput("name"),
			Tags:          gate.SplitList(a.GetInput("tags")),
			Manifest:      a.GetInput("manifest"),
			// A command line may hold commas: one command a line.
			Implementations: splitLines(a.GetInput("implementation")),
			Results:         gate.SplitList(a.GetInput("results")),
			Baseline:        a.GetInput("baseline"),
			KnownFailures:   a.GetInput("known-failures"),
			Spelling:        gate.InputSpelling,
			Contained:       true,
		},
		Token:      a.GetInput("github-token"),
		CheckName:  a.GetInput("check-name"),
		ReportName: a.GetInput("report-name"),
	}
	if in.CheckName == "" {
		in.CheckName = defaultCheckName
	}
	if in.ReportName == "" {
		in.ReportName = in.CheckName
	}
	if s := a.GetInput("check-run-id"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return in, fmt.Errorf("input check-run-id: %q is not a check run id (a positive whole number)", s)
		}
		in.CheckRunID = id
	}
	var err error
	if in.Comment, err = github.ParseCommentMode(orDefault(a.GetInput("comment"), string(github.CommentFailures))); err != nil {
		return in, fmt.Errorf("input comment: %w", err)
	}
	switch m := AnnotationMode(orDefault(a.GetInput("annotations"), string(AnnotateCheckRun))); m {
	case AnnotateCheckRun, AnnotateCommands, AnnotateOff:
		in.Annotations = m
	default:
		return in, fmt.Errorf("input annotations: %q is not one of check-run, commands, off", m)
	}
	switch v := orDefault(a.GetInput("comment-style"), "compact"); v {
	case "compact":
	case "full":
		in.FullComment = true
	default:
		return in, fmt.Errorf("input comment-style: %q is not compact or full", v)
	}
	switch v := orDefault(a.GetInput("job-summary"), "true"); v {
	case "true":
	case "false":
		in.NoJobSummary = true
	default:
		return in, fmt.Errorf("input job-summary: %q is not true or false", v)
	}
	switch m := FindingMode(orDefault(a.GetInput("finding-annotations"), string(FindingsAll))); m {
	case FindingsAll, FindingsChanged, FindingsOff:
		in.FindingAnnotations = m
	default:
		return in, fmt.Errorf("input finding-annotations: %q is not one of all, changed, off", m)
	}
	switch v := a.GetInput("coverage"); v {
	case "true":
		in.Coverage = true
	case "false", "":
	default:
		return in, fmt.Errorf("input coverage: %q is not true or false", v)
	}
	if s := a.GetInput("explore"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return in, fmt.Errorf("input explore: %q is not a number of streams (a whole number, 0 for none)", s)
		}
		in.Explore = n
	}
	in.ExploreOut = a.GetInput("explore-out")
	if in.FailOn, err = gate.ParseFailOn(orDefault(a.GetInput("fail-on"), gate.DefaultFailOn.String())); err != nil {
		return in, fmt.Errorf("input fail-on: %w", err)
	}
	return in, nil
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
