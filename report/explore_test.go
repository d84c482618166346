package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
)

// The explore report in every format, from an exploration that fills
// every field (and one with nothing found): lists are null in the JSON
// document when there is nothing in them.
func TestExploreRenderings(t *testing.T) {
	fail := model.StreamVerdict{Outcome: "error", Phase: "semantic_validation", Code: "DRP2_ERR_INVALID_ID", CommandIndex: 2, Rule: "R1"}
	rep := &model.Exploration{Seed: 7, Count: 10, Streams: 9, StoppedBy: "time", Seeds: 3, Shard: &model.Shard{Index: 1, Count: 2},
		Kinds: []model.StreamKindCount{{Kind: "mutation", Streams: 6}, {Kind: "breaks", Streams: 3}},
		Implementations: []model.ExploredImplementation{
			{Command: "a --x", Label: "a 1.0", Executes: true, Streams: 9, Agreed: 5, Differed: 2, NoVerdict: 1, NotClaimed: 1, Restarts: 1},
			{Command: "b", Label: "b|2\n", Streams: 9, Error: "it exited <now>"},
		},
		Disagreements: []model.Disagreement{{Signature: "R1 | error semantic_validation DRP2_ERR_INVALID_ID | a 1.0: success (outcome)",
			Rule: "R1", Streams: 2, First: 4, Kind: "breaks R1", From: "positive/x.json", Builtin: fail,
			Answers: []model.DisagreementAnswer{
				{Implementation: "a 1.0", Verdict: model.StreamVerdict{Outcome: "success", CommandIndex: -1, Replies: "reply 1 is missing"}, Differs: []string{"outcome", "reply shape"}},
				{Implementation: "b|2", Verdict: model.StreamVerdict{CommandIndex: -1, NoVerdict: "it exited"}},
				{Implementation: "c", Verdict: model.StreamVerdict{CommandIndex: -1, NotClaimed: true}},
				{Implementation: "d", Verdict: model.StreamVerdict{Outcome: "error", Code: "X", CommandIndex: -1}, Differs: []string{"code"}},
			},
			Candidate: model.CandidateFixture{Path: "negative/explore_r1_0a.json", Name: "explore_r1_0a", Commands: 3, Original: 12, Tests: 40,
				Data: []byte("{}"), Written: "written to out/negative/explore_r1_0a.json"}},
			{Signature: "valid stream | success | d: error X (outcome)", Rule: "valid stream", Streams: 1, First: 8, Kind: "mutation",
				Builtin:   model.StreamVerdict{Outcome: "success", CommandIndex: -1},
				Answers:   []model.DisagreementAnswer{{Implementation: "d", Verdict: fail, Differs: []string{"outcome"}}},
				Candidate: model.CandidateFixture{Path: "positive/explore_valid_0b.json", Name: "explore_valid_0b", Commands: 1, Original: 1}}},
		Duration: 1500 * time.Millisecond, DurationSeconds: 1.5}
	none := &model.Exploration{Seed: 1, Count: 4, Streams: 4, StoppedBy: "count", Seeds: 2, Kinds: []model.StreamKindCount{{Kind: "mutation", Streams: 4}}}
	for name, r := range map[string]*model.Exploration{"explore": rep, "explore-none": none} {
		for _, f := range []string{"json", "text", "markdown"} {
			var b bytes.Buffer
			if err := Lookup(f).WriteExplore(&b, r); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, name+"."+f, b.Bytes())
		}
	}
}
