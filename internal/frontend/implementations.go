package frontend

import (
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// FindingMode says which corpus findings become annotations.
type FindingMode string

const (
	FindingsAll     FindingMode = "all"
	FindingsChanged FindingMode = "changed"
	FindingsOff     FindingMode = "off"
)

// AllAnnotations are the run's own annotations and those of every
// implementation that fails a fixture, each titled with the
// implementation.
func AllAnnotations(run *model.Run, findings FindingMode) []annotation.Annotation {
	anns := annotation.BuildWith(run, annotation.Options{KeepFinding: keepFinding(run, findings)})
	for i := range run.Implementations {
		if im := &run.Implementations[i]; im.Summary.Failed > 0 {
			anns = append(anns, annotation.BuildImplementation(run, im)...)
		}
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

// CommentBody is the sticky comment: the matrix when the run has
// implementations, else the run's own report.
func CommentBody(run *model.Run, md markdown.Options) string {
	if len(run.Implementations) > 0 {
		return markdown.ImplementationsComment(run, md)
	}
	return markdown.Comment(run, md)
}

// SplitLines splits a list input written one item per line.
func SplitLines(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}
