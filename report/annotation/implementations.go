package annotation

import (
	"fmt"
	"strings"

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
	return append(anns, imageAnnotations(run, im)...)
}

// imageAnnotations are the implementation's Level 3 images that fail a
// run that fails on level3, on their fixture's file, titled with the
// bound exceeded; none when Level 3 is information.
func imageAnnotations(run *model.Run, im *model.Implementation) []Annotation {
	if run.Judgement == nil || !strings.Contains(","+run.Judgement.FailOn+",", ",level3,") {
		return nil
	}
	files := map[string]string{}
	for i := range im.Results {
		files[im.Results[i].RelPath] = explain.FilePath(explain.DisplayPath(&im.Results[i]))
	}
	var anns []Annotation
	for i := range im.Images {
		c := &im.Images[i]
		failure := explain.ImageFailure(c)
		if failure == "" {
			continue
		}
		var lines []string
		if m := explain.ImageMetrics(c); m != "" {
			lines = append(lines, m+"; tolerance "+c.Tolerance)
		}
		for _, f := range []struct{ name, path string }{{"reference", c.Reference}, {"actual", c.Actual}, {"diff", c.Diff}} {
			if f.path != "" {
				lines = append(lines, f.name+" "+f.path)
			}
		}
		path := files[c.Path]
		if path == "" {
			path = c.Path
		}
		a := Annotation{Path: path, Level: LevelFailure,
			Title:   title(fmt.Sprintf("DRP2 %s: Level 3 image, readback %d: %s", im.Label(), c.Readback, failure)),
			Message: detail(strings.Join(append([]string{failure}, lines...), "\n"))}
		locate(&a, nil)
		anns = append(anns, a)
	}
	return anns
}
