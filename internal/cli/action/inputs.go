package action

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/github"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/annotation"
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

// Inputs are the action inputs of action.yml, parsed: the run they ask
// for, and how the results are published.
type Inputs struct {
	gate.RunRequest
	// Files are the JUnit, JSON and Markdown report paths.
	Files       report.Paths
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
	// JUnitStrict writes the JUnit report without file and line
	// (junit-strict: true).
	JUnitStrict bool
	// FindingAnnotations says which findings become annotations: all, or
	// only those on files the change touched (changed), or none.
	FindingAnnotations annotation.FindingMode
	// RerunFrom is the previous attempt's JSON report, read on a re-run
	// attempt only (rerunFrom).
	RerunFrom string
}

// defaultCheckName is the check-name default of action.yml, used when the
// input is absent (a run outside the action runner).
const defaultCheckName = "DRP2 fixtures"

// readInputs reads the INPUT_* variables. The runner passes action.yml
// defaults as values, so an empty value means the user cleared the input;
// enums and numbers that do not parse are unusable input.
func readInputs(a *githubactions.Action) (Inputs, error) {
	in := Inputs{
		RunRequest: gate.RunRequest{
			Source: gate.Source{
				Corpus:        a.GetInput("corpus"),
				CommandSchema: a.GetInput("command-schema"),
				FixtureSchema: a.GetInput("fixture-schema"),
				Spelling:      gate.InputSpelling,
			},
			RequireCorpus: true,
			Paths:         splitList(a.GetInput("paths")),
			Name:          a.GetInput("name"),
			Tags:          splitList(a.GetInput("tags")),
			Manifest:      a.GetInput("manifest"),
			// A command line may hold commas: one command a line.
			Implementations: splitLines(a.GetInput("implementation")),
			Results:         splitList(a.GetInput("results")),
			ExpectAdapter:   a.GetInput("expect-adapter"),
			ShardTimings:    a.GetInput("shard-timings"),
			Baseline:        a.GetInput("baseline"),
			KnownFailures:   a.GetInput("known-failures"),
			// Paths may hold commas: one file a line.
			Expectations:       splitLines(a.GetInput("expectations")),
			UpdateExpectations: a.GetInput("update-expectations"),
			Contained:          true,
		},
		Token:      a.GetInput("github-token"),
		CheckName:  a.GetInput("check-name"),
		ReportName: a.GetInput("report-name"),
		RerunFrom:  a.GetInput("rerun-from"),
	}
	for i := range report.ReportFiles {
		if rf := &report.ReportFiles[i]; rf.Input != "" {
			*rf.Path(&in.Files) = a.GetInput(rf.Input)
		}
	}
	if in.Files.JSON != "" {
		// Level 3's images go beside the JSON report, as its artifact.
		in.ImagesOut = in.Files.JSON + ".images"
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
	if err := readChoices(a, &in); err != nil {
		return in, err
	}
	if err := readNumbers(a, &in); err != nil {
		return in, err
	}
	if in.RunRequest.Require, err = readRequire(a); err != nil {
		return in, err
	}
	if in.FailOn, err = gate.ParseFailOn(orDefault(a.GetInput("fail-on"), gate.DefaultFailOn.String())); err != nil {
		return in, fmt.Errorf("input fail-on: %w", err)
	}
	return in, nil
}

// readNumbers reads the inputs that take a number, a duration or a shard
// (and explore-out beside explore).
func readNumbers(a *githubactions.Action, in *Inputs) error {
	if s := a.GetInput("retries"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("input retries: %q is not a number of retries (a whole number, 0 for none)", s)
		}
		in.RunRequest.Retries = n
	}
	if s := a.GetInput("explore"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("input explore: %q is not a number of streams (a whole number, 0 for none)", s)
		}
		in.RunRequest.Explore = n
	}
	if s := a.GetInput("explore-time"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return fmt.Errorf("input explore-time: %q is not a duration such as 90s or 5m", s)
		}
		in.RunRequest.ExploreTime = d
	}
	in.RunRequest.ExploreOut = a.GetInput("explore-out")
	if s := a.GetInput("shard"); s != "" {
		sh, err := gate.ParseShard(s)
		if err != nil {
			return fmt.Errorf("input shard: %w", err)
		}
		in.RunRequest.Shard = sh
	}
	return nil
}

// readChoices reads the inputs that take one of a few words.
func readChoices(a *githubactions.Action, in *Inputs) error {
	var annotations, style, summary, findings, coverage, strict, updateRefs string
	for _, c := range []struct {
		name, def string
		dst       *string
		words     []string
	}{
		{"annotations", string(AnnotateCheckRun), &annotations, []string{string(AnnotateCheckRun), string(AnnotateCommands), string(AnnotateOff)}},
		{"comment-style", "compact", &style, []string{"compact", "full"}},
		{"job-summary", "true", &summary, []string{"true", "false"}},
		{"finding-annotations", string(annotation.FindingsAll), &findings, []string{string(annotation.FindingsAll), string(annotation.FindingsChanged), string(annotation.FindingsOff)}},
		{"coverage", "false", &coverage, []string{"true", "false"}},
		{"junit-strict", "false", &strict, []string{"true", "false"}},
		{"update-refs", "false", &updateRefs, []string{"true", "false"}},
	} {
		*c.dst = orDefault(a.GetInput(c.name), c.def)
		if !slices.Contains(c.words, *c.dst) {
			return fmt.Errorf("input %s: %q is not one of %s", c.name, *c.dst, strings.Join(c.words, ", "))
		}
	}
	in.Annotations, in.FindingAnnotations = AnnotationMode(annotations), annotation.FindingMode(findings)
	in.FullComment, in.NoJobSummary, in.Coverage, in.JUnitStrict = style == "full", summary == "false", coverage == "true", strict == "true"
	in.UpdateRefs = updateRefs == "true"
	return nil
}

// readRequire reads require (NAME@GLOB, one per line or comma separated)
// and its older spelling require-implementations (a name, one per line,
// since a command line may hold commas).
func readRequire(a *githubactions.Action) ([]model.Requirement, error) {
	var out []model.Requirement
	for _, s := range splitList(a.GetInput("require")) {
		r, err := model.ParseRequirement(s)
		if err != nil {
			return nil, fmt.Errorf("input require: %q: %w", s, err)
		}
		out = append(out, r)
	}
	for _, name := range splitLines(a.GetInput("require-implementations")) {
		out = append(out, model.Requirement{Name: name})
	}
	return out, nil
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// splitLines splits a list input written one item per line.
func splitLines(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// splitList splits a list input written one per line or comma separated,
// as fail-on is (gate.ParseFailOn).
func splitList(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, item := range strings.Split(line, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}
