package annotation

import "github.com/drp2/drp2-fixtures/model"

// FindingMode says which corpus findings become annotations.
type FindingMode string

const (
	FindingsAll     FindingMode = "all"
	FindingsChanged FindingMode = "changed"
	FindingsOff     FindingMode = "off"
)

// ForRun are the run's own annotations and those of every
// implementation that fails a fixture, each titled with the
// implementation.
func ForRun(run *model.Run, findings FindingMode) []Annotation {
	anns := BuildWith(run, Options{KeepFinding: keepFinding(run, findings)})
	for i := range run.Implementations {
		if im := &run.Implementations[i]; im.Summary.Failed > 0 {
			anns = append(anns, BuildImplementation(run, im)...)
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
				if ch.Content != model.ContentSame || ch.Transition == model.AddedFailing || ch.Transition == model.AddedPassing {
					touched[ch.Path] = true
				}
			}
		}
		return func(f model.Finding) bool { return touched[f.Path] }
	}
	return nil
}
