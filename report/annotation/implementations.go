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
func BuildImplementation(run *model.Run, im *model.Implementation) []model.Annotation {
	if run == nil || im == nil {
		return nil
	}
	var anns []model.Annotation
	for i := range im.Results {
		r := &im.Results[i]
		if r.Passed {
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
		a := model.Annotation{
			Path:       slashPath(explain.DisplayPath(r)),
			Level:      model.LevelFailure,
			Title:      title("DRP2 " + im.Label() + ": " + what + ": " + explain.Name(r)),
			Message:    clip(msg),
			RawDetails: clip(explain.Detail(r)),
		}
		locate(&a, r.Span)
		anns = append(anns, a)
	}
	return anns
}
