package annotation

import (
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// BuildImplementation returns one annotation per fixture the implementation
// under test failed, on the fixture's lines, titled with the
// implementation so that they cannot be mistaken for the corpus's own
// mismatches. A fixture without a verdict (crash, timeout, garbage) is
// annotated too: it is the implementation's failure all the same.
func BuildImplementation(run *model.Run, im *model.Implementation) []Annotation {
	if run == nil || im == nil {
		return nil
	}
	results := im.Results
	var anns []Annotation
	for i := range results {
		r := &results[i]
		if r.Kind() == model.KindUnexpectedPass {
			a := Annotation{Path: explain.FilePath(explain.DisplayPath(r)), Level: LevelNotice}
			stalePass(&a, im.Label(), r)
			locate(&a, nil)
			anns = append(anns, a)
			continue
		}
		// Only what fails the run: a fixture of a phase it does not
		// perform, a skipped one, one its expectations excuse, is none.
		if explain.Show(r.Kind(), "").Annotation != "failure" {
			continue
		}
		what, msg := "fixture mismatch ("+r.Class.String()+")", message(r)
		if r.Actual.Outcome == model.HarnessError || r.Actual.Outcome == model.Success && r.Actual.Message != "" {
			// Say what happened first: the crash or the bad reply.
			msg = r.Actual.Message + "\n" + msg
		}
		if r.Actual.Outcome == model.HarnessError {
			what = "no verdict"
		}
		a := Annotation{
			Path:       explain.FilePath(explain.DisplayPath(r)),
			Level:      LevelFailure,
			Title:      title("DRP2 " + im.Label() + ": " + what + ": " + explain.Name(r)),
			Message:    detail(msg),
			RawDetails: detail(explain.Body(r)),
		}
		locate(&a, r.Span)
		anns = append(anns, a)
	}
	return anns
}
