package gate

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// The manifest's reasons name what decides the verdict: a broken freeze,
// and under --check-clean the differences a freeze allows, but not those
// differences again when the violations are all there is.
func TestManifestReasons(t *testing.T) {
	violation := model.ManifestChange{Kind: "changed", Path: "negative/a.json", Description: "commands", Violation: true}
	added := model.ManifestChange{Kind: "added", Path: "positive/b.json", Description: "added"}
	for _, tc := range []struct {
		name       string
		frozen     bool
		checkClean bool
		changes    []model.ManifestChange
		want       []string
	}{
		{"clean", true, true, nil, nil},
		{"allowed change", true, false, []model.ManifestChange{added}, nil},
		{"allowed change, check-clean", true, true, []model.ManifestChange{added}, []string{"the corpus differs from its manifest m.json"}},
		{"violation", true, false, []model.ManifestChange{violation}, []string{"the corpus breaks the freeze of m.json (1 violation)"}},
		{"violation only, check-clean", true, true, []model.ManifestChange{violation}, []string{"the corpus breaks the freeze of m.json (1 violation)"}},
		{"both, check-clean", true, true, []model.ManifestChange{violation, added},
			[]string{"the corpus breaks the freeze of m.json (1 violation)", "the corpus differs from its manifest m.json"}},
		{"not frozen, check-clean", false, true, []model.ManifestChange{added}, []string{"the corpus differs from its manifest m.json"}},
	} {
		violations := 0
		for _, ch := range tc.changes {
			if ch.Violation {
				violations++
			}
		}
		mc := &ManifestCheck{Cmp: &model.ManifestCheck{Path: "m.json", Frozen: tc.frozen, CheckClean: tc.checkClean, Violations: violations, Changes: tc.changes}}
		// The headline as every report words it: the counts, then each reason.
		run := &model.Run{Summary: model.Summary{Run: 1, Passed: 1}, Judgement: &model.Judgement{Reasons: mc.reasons()}}
		got := strings.Split(explain.Judgement(run).Headline, "; ")[1:]
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s: headline parts %q, want %q", tc.name, got, tc.want)
		}
	}
}
