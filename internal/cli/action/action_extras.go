package action

// What the manifest and explore inputs add to the action's sinks: the
// explore report in the job summary, and failure annotations on the
// fixtures that break a frozen manifest.

import (
	"github.com/drp2/drp2-fixtures/internal/gate"
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

func newExtras(o *gate.Outcome) extras {
	if o.Manifest == nil {
		return extras{}
	}
	where := annotation.ManifestWhere{Manifest: o.Manifest.Cmp.Path, Fixture: o.Manifest.FixturePath}
	return extras{annotations: annotation.ForManifest(o.Manifest.Cmp, where)}
}
