package cli

// The runtime harness in a Job: implementations to run the selected
// fixtures through (--implementation, input implementation), and JSON
// reports of other jobs to merge in (input results).

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/limit"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// addImplementations runs the job's implementations through the fixtures
// of run, then merges the job's result files into it.
func addImplementations(ctx context.Context, r resolved, run *model.Run) (*model.Run, error) {
	if len(r.Implementations) > 0 {
		commands, err := harness.ExpandCommands(r.readInput, r.Implementations)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		cfg := harness.Config{Commands: commands, Dir: r.workDir, Timeout: r.Timeout}
		impls, err := harness.Run(ctx, cfg, run, fixtureReader(r))
		if err != nil {
			return nil, err
		}
		run.Implementations = impls
	}
	if len(r.Results) == 0 {
		return run, nil
	}
	reports, err := readResults(r, r.Results)
	if err != nil {
		return nil, err
	}
	merged, err := harness.Merge(append([]harness.Report{{Source: "this run", Run: run}}, reports...))
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return merged, nil
}

// fixtureReader reads fixtures from the corpus the runner ran.
func fixtureReader(r resolved) harness.ReadFunc {
	fsys := r.corpusSource().FS
	return func(rel string) ([]byte, error) { return fs.ReadFile(fsys, rel) }
}

// readResults reads JSON reports named by paths or glob patterns (relative
// to dir), in lexical order within each pattern. A pattern that matches
// nothing is unusable input: a results input pointing nowhere is a
// mistake, not an empty merge.
func readResults(r resolved, patterns []string) ([]harness.Report, error) {
	dir := r.workDir
	var reports []harness.Report
	seen := map[string]bool{}
	for _, pat := range patterns {
		full := pat
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, full)
		}
		matches, err := filepath.Glob(full)
		if err != nil {
			return nil, usageErrorf("results %q: %v", pat, err)
		}
		if len(matches) == 0 {
			return nil, usageErrorf("results %q: no such file", pat)
		}
		sort.Strings(matches)
		for _, m := range matches {
			if seen[m] {
				continue
			}
			seen[m] = true
			name := m
			if rel, ok := workspace.Within(dir, m); ok {
				name = filepath.ToSlash(rel)
			}
			data, err := r.readInput(m)
			if err != nil {
				return nil, usageErrorf("results %s: %v", name, err)
			}
			run, err := jsonout.Read(bytes.NewReader(data))
			if err != nil {
				return nil, usageErrorf("results %s: %v", name, err)
			}
			reports = append(reports, harness.Report{Source: name, Run: run})
		}
	}
	return reports, nil
}

// implementationReasons says which implementations fail the run: one with
// a failing fixture, or one that could not be used.
func implementationReasons(run *model.Run, job Job) []string {
	var why []string
	if job.FailOn.Level3 {
		for _, row := range model.Parity(run) {
			if !row.Agree() {
				why = append(why, fmt.Sprintf("Level 3 preview: readback %d of %s differs across %s", row.Readback, cleanLine(row.Path), cleanLine(paritySources(row))))
			}
		}
	}
	if !job.FailOn.Mismatch {
		return why
	}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		switch {
		case im.Error != "":
			why = append(why, fmt.Sprintf("implementation %s could not be used: %s", cleanLine(im.Label()), cleanLine(im.Error)))
		case im.Summary.Failed > 0:
			why = append(why, fmt.Sprintf("implementation %s failed %d of %d fixtures", cleanLine(im.Label()), im.Summary.Failed, im.Summary.Run))
		}
	}
	return why
}

// paritySources names the groups of a parity row: "a, b | c".
func paritySources(row model.ParityRow) string {
	var groups []string
	for _, g := range row.Groups {
		groups = append(groups, strings.Join(g.Sources, ", "))
	}
	return strings.Join(groups, " | ")
}

// cleanLine keeps an implementation's own words on one printable line.
func cleanLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

// implementationsFailed reports whether any implementation fails.
func implementationsFailed(run *model.Run) bool { return markdown.ImplementationsFailed(run) > 0 }

// implementationsSummary is the matrix for the job summary, after the
// run's own report, within a quarter of GitHub's limit.
func implementationsSummary(run *model.Run, md markdown.Options) string {
	if len(run.Implementations) == 0 {
		return ""
	}
	return "\n" + markdown.Matrix(run, md, func(s string) bool { return len(s) <= limit.StepSummaryBytes/4 })
}

// allAnnotations are the run's own annotations and those of the
// implementation under test: the first one given, as the one a runtime
// project's workflow names first is its own.
func allAnnotations(run *model.Run, findings FindingMode) []annotation.Annotation {
	anns := annotation.BuildWith(run, annotation.Options{KeepFinding: keepFinding(run, findings)})
	if len(run.Implementations) > 0 {
		anns = append(anns, annotation.BuildImplementation(run, &run.Implementations[0])...)
	}
	return anns
}

// keepFinding is which findings become annotations: every one (all,
// the default), none (off), or with changed those on a file the change
// touched: added, renamed or edited against the baseline. Without a
// comparison no file is known to be touched, and the findings stay in the
// reports.
func keepFinding(run *model.Run, mode FindingMode) func(model.Finding) bool {
	switch mode {
	case FindingsOff:
		return func(model.Finding) bool { return false }
	case FindingsChanged:
		touched := map[string]bool{}
		if c := run.Comparison; c != nil {
			for _, ch := range c.Changes {
				if ch.Content != model.ContentSame || ch.Verdict == model.AddedFailing || ch.Verdict == model.AddedPassing {
					touched[ch.Path] = true
				}
			}
		}
		return func(f model.Finding) bool { return touched[f.Path] }
	}
	return nil
}

// commentBody is the sticky comment: the matrix when the run has
// implementations, else the run's own report.
func commentBody(run *model.Run, md markdown.Options) string {
	if len(run.Implementations) > 0 {
		return markdown.ImplementationsComment(run, md)
	}
	return markdown.Comment(run, md)
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
