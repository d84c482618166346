package report

// The explore JSON document's wire shape: its field names are this
// format's, the data model.Exploration's. A type whose fields are those of
// its model type, in their order, is made from it by a conversion (tags do
// not count); a field tagged "-" is kept for that and never written.

import "github.com/drp2/drp2-fixtures/model"

type exploreJSON struct {
	Seed            int64                        `json:"seed"`
	Count           int                          `json:"count"`
	Streams         int                          `json:"streams"`
	StoppedBy       string                       `json:"stopped_by"`
	Seeds           int                          `json:"seeds"`
	Shard           *exploreShardJSON            `json:"shard,omitempty"`
	Kinds           []streamKindCountJSON        `json:"kinds"`
	Implementations []exploredImplementationJSON `json:"implementations"`
	Disagreements   []disagreementJSON           `json:"disagreements"`
	DurationSeconds float64                      `json:"duration_seconds"`
}

type exploreShardJSON struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

type streamKindCountJSON struct {
	Kind    string `json:"kind"`
	Streams int    `json:"streams"`
}

type exploredImplementationJSON struct {
	Command    string `json:"command"`
	Label      string `json:"label"`
	Executes   bool   `json:"executes"`
	Streams    int    `json:"streams"`
	Agreed     int    `json:"agreed"`
	Differed   int    `json:"differed"`
	NoVerdict  int    `json:"no_verdict"`
	NotClaimed int    `json:"not_claimed"`
	Restarts   int    `json:"restarts"`
	Error      string `json:"error,omitempty"`
}

type disagreementJSON struct {
	Signature string                   `json:"signature"`
	Rule      string                   `json:"rule"`
	Streams   int                      `json:"streams"`
	First     int                      `json:"first_stream"`
	Kind      string                   `json:"kind"`
	From      string                   `json:"from"`
	Builtin   streamVerdictJSON        `json:"builtin"`
	Answers   []disagreementAnswerJSON `json:"answers"`
	Candidate candidateFixtureJSON     `json:"candidate"`
}

type disagreementAnswerJSON struct {
	Implementation string            `json:"implementation"`
	Verdict        streamVerdictJSON `json:"verdict"`
	Differs        []string          `json:"differs,omitempty"`
}

type candidateFixtureJSON struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	Commands int    `json:"commands"`
	Original int    `json:"original_commands"`
	Tests    int    `json:"minimization_tests"`
	Data     []byte `json:"-"`
	Written  string `json:"written,omitempty"`
}

type streamVerdictJSON struct {
	Outcome      string `json:"outcome,omitempty"`
	Phase        string `json:"phase,omitempty"`
	Code         string `json:"code,omitempty"`
	CommandIndex int    `json:"command_index"`
	Rule         string `json:"rule,omitempty"`
	Replies      string `json:"replies,omitempty"`
	NoVerdict    string `json:"no_verdict,omitempty"`
	NotClaimed   bool   `json:"not_claimed,omitempty"`
}

// exploreWire is the exploration in its wire shape. A nil list stays nil
// (null in the document), as the document has always written it.
func exploreWire(rep *model.Exploration) *exploreJSON {
	out := &exploreJSON{Seed: rep.Seed, Count: rep.Count, Streams: rep.Streams, StoppedBy: rep.StoppedBy, Seeds: rep.Seeds,
		Kinds: convertAll(rep.Kinds, func(k model.StreamKindCount) streamKindCountJSON { return streamKindCountJSON(k) }),
		Implementations: convertAll(rep.Implementations, func(im model.ExploredImplementation) exploredImplementationJSON {
			return exploredImplementationJSON(im)
		}),
		Disagreements:   convertAll(rep.Disagreements, disagreementWire),
		DurationSeconds: rep.DurationSeconds}
	if rep.Shard != nil {
		out.Shard = &exploreShardJSON{Index: rep.Shard.Index, Count: rep.Shard.Count}
	}
	return out
}

func disagreementWire(d model.Disagreement) disagreementJSON {
	return disagreementJSON{Signature: d.Signature, Rule: d.Rule, Streams: d.Streams, First: d.First, Kind: d.Kind, From: d.From,
		Builtin: streamVerdictJSON(d.Builtin),
		Answers: convertAll(d.Answers, func(a model.DisagreementAnswer) disagreementAnswerJSON {
			return disagreementAnswerJSON{Implementation: a.Implementation, Verdict: streamVerdictJSON(a.Verdict), Differs: a.Differs}
		}),
		Candidate: candidateFixtureJSON(d.Candidate)}
}

// convertAll converts every element of in; nil for nil.
func convertAll[S, T any](in []S, convert func(S) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, s := range in {
		out[i] = convert(s)
	}
	return out
}
