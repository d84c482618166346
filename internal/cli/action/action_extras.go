package action

// What the manifest and explore inputs add to the action's sinks: failure
// annotations on the fixtures that break a frozen manifest, and the
// exploration, run after the reports, in the job summary.

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// extras are what the manifest input adds to the action's sinks beyond
// the run's own reports (which carry the manifest comparison and the rule
// coverage).
type extras struct {
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
	return x, nil
}

// explore runs the explore input's exploration once the run's reports and
// job summary are written, within explore-time, and adds its report to
// the job summary (unless its write failed: summary false). What it finds
// is a lead, never a verdict: an exploration that fails is a warning, in
// the log and the summary.
func (a *runAction) explore(ctx context.Context, d *delivery, summary bool) {
	if d.job.Explore == 0 {
		return
	}
	var b bytes.Buffer
	b.WriteString("\n")
	explored, err := gate.ExploreAfter(ctx, d.job, d.out)
	if explored != nil {
		if werr := report.Lookup("markdown").WriteExplore(&b, explored); werr != nil {
			err = errors.Join(err, werr)
		}
	}
	if err != nil {
		a.warnf("%v", err)
		fmt.Fprintf(&b, "\n%s\n", escape.MarkdownText(explain.ExploreFailed(err.Error())))
	}
	if path := a.getenv("GITHUB_STEP_SUMMARY"); path != "" && !d.in.NoJobSummary && summary {
		if werr := gate.SaveReport(d.wd, false)(path, a.env.Redactor.Bytes(b.Bytes()), true); werr != nil {
			a.warnf("write job summary: %v", werr)
		}
	}
}
