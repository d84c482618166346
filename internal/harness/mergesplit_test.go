package harness

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// splitOf is the whole run as n shards by path hash, each recording digest
// as its corpus digest.
func splitOf(whole *model.Run, n int, digest string) []Report {
	var reports []Report
	for k := 1; k <= n; k++ {
		part := *whole
		part.Shard, part.CorpusDigest, part.Results = &model.Shard{Index: k, Count: n}, digest, nil
		for _, r := range whole.Results {
			if runner.ShardOf(r.RelPath, n) == k {
				part.Results = append(part.Results, r)
			}
		}
		part.Summary = model.Summarize(whole.Summary.Discovered, part.Results, part.Findings)
		reports = append(reports, Report{Source: fmt.Sprintf("%d.json", k), Run: &part})
	}
	return reports
}

// TestMergeChecksTheSplitCoversItsSelection: shards that record the
// digest of the selection's paths, or (filtered by name or tag, or of an
// older version) of its content, merge into the whole run's digest; a
// shard report that lost a fixture, or holds one the selection does not
// have, is refused, naming the reports, unless an interruption cut the
// split short, which the merged report says.
func TestMergeChecksTheSplitCoversItsSelection(t *testing.T) {
	whole, _ := embeddedRun(t)
	var paths []string
	for _, r := range whole.Results {
		paths = append(paths, r.RelPath)
	}
	for _, digest := range []string{runner.ListingDigest(paths), whole.CorpusDigest} {
		merged, err := Merge(splitOf(whole, 3, digest))
		if err != nil || merged.CorpusDigest != whole.CorpusDigest || merged.Summary.Run != whole.Summary.Run {
			t.Fatalf("digest %s: %v, merged digest %s, the whole run's %s", digest, err, merged.CorpusDigest, whole.CorpusDigest)
		}
		lost := splitOf(whole, 3, digest)
		lost[1].Run.Results = lost[1].Run.Results[1:]
		_, err = Merge(lost)
		want := fmt.Sprintf("the shards (1.json, 2.json, 3.json) hold %d fixtures, which are not the selection their corpus sha256 %s lists", len(paths)-1, digest[:12])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a lost fixture: %v, want %q", err, want)
		}
		planted := splitOf(whole, 3, digest)
		extra := planted[0].Run.Results[0]
		for i := 0; runner.ShardOf(extra.RelPath, 3) != 1 || extra.RelPath == planted[0].Run.Results[0].RelPath; i++ {
			extra.RelPath = fmt.Sprintf("positive/planted_%d.json", i)
		}
		planted[0].Run.Results = append(planted[0].Run.Results, extra)
		if _, err := Merge(planted); err == nil || !strings.Contains(err.Error(), "which are not the selection") {
			t.Errorf("a planted fixture: %v", err)
		}
		lost[1].Run.Interrupted = &model.Interruption{Signal: "SIGTERM"}
		if merged, err := Merge(lost); err != nil || merged.Interrupted == nil {
			t.Errorf("an interrupted split: %v", err)
		}
	}
}
