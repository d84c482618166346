package action

// What the manifest and explore inputs add to the action's sinks: the
// explore report in the job summary, and failure annotations on the
// fixtures that break a frozen manifest.

import (
	"bytes"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/annotation"
)

// extras are what the manifest and explore inputs add to the action's
// sinks beyond the run's own reports (which carry the manifest comparison
// and the rule coverage).
type extras struct {
	// summary is Markdown appended to the job summary: the explore input's
	// report.
	summary string
	// annotations are failure annotations on the fixtures that break a
	// frozen manifest.
	annotations []annotation.Annotation
}

func newExtras(o *gate.Outcome) (extras, error) {
	var x extras
	if o.Manifest != nil {
		where := annotation.ManifestWhere{Manifest: o.Manifest.Cmp.Path, Fixture: o.Manifest.FixturePath}
		x.annotations = annotation.ForManifest(o.Manifest.Cmp, where)
	}
	if o.Exploration != nil {
		// The explore input's report, a section of the job summary.
		var b bytes.Buffer
		b.WriteString("\n")
		if err := report.Lookup("markdown").WriteExplore(&b, o.Exploration); err != nil {
			return x, err
		}
		x.summary = b.String()
	}
	return x, nil
}
