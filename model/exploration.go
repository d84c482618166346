package model

import "time"

// Exploration is what an exploration found: streams generated from a seed,
// judged by the built-in validator and every implementation, and the
// disagreements between them, each minimized into a candidate fixture.
// internal/explore makes it; report renders it.
type Exploration struct {
	Seed int64
	// Count is the number of streams asked for; Streams those generated
	// and judged, fewer when the time ran out (StoppedBy "time").
	Count     int
	Streams   int
	StoppedBy string
	// Seeds is the number of corpus streams the mutations start from.
	Seeds int
	// Shard is the part of the streams explored (stream i is in shard
	// i mod Count + 1); nil for all of them.
	Shard           *Shard
	Kinds           []StreamKindCount
	Implementations []ExploredImplementation
	Disagreements   []Disagreement
	Duration        time.Duration
	DurationSeconds float64
}

// StreamKindCount counts the streams of one kind: mutation, satisfies
// (aimed at a rule, satisfying it) or breaks (aimed at a rule, breaking
// it).
type StreamKindCount struct {
	Kind    string
	Streams int
}

// ExploredImplementation is one implementation's part in an exploration.
type ExploredImplementation struct {
	Command  string
	Label    string
	Executes bool
	// Streams counts the generated streams; Agreed, Differed, NoVerdict
	// and NotClaimed (failing in a phase it does not perform, not sent)
	// split them.
	Streams    int
	Agreed     int
	Differed   int
	NoVerdict  int
	NotClaimed int
	Restarts   int
	Error      string
}

// Disagreement is one signature: the streams on which the same
// implementations differed from the validator in the same way.
type Disagreement struct {
	Signature string
	Rule      string
	// Streams counts the generated streams that showed it; First is the
	// first of them, of Kind, made from the corpus fixture From.
	Streams int
	First   int
	Kind    string
	From    string
	// Builtin and Answers are the verdicts on the minimized stream.
	Builtin   StreamVerdict
	Answers   []DisagreementAnswer
	Candidate CandidateFixture
}

// DisagreementAnswer is one implementation's verdict on a disagreement's
// stream.
type DisagreementAnswer struct {
	Implementation string
	Verdict        StreamVerdict
	// Differs lists what of the verdict differs from the built-in
	// validator's ("outcome", "code", ...); empty when it agrees.
	Differs []string
}

// CandidateFixture is a disagreement's minimized stream as a fixture.
type CandidateFixture struct {
	// Path is the corpus-relative path it is written at (folder of its
	// class, file named after the disagreement); Name its fixture name.
	Path string
	Name string
	// Commands is its length; Original the first stream's; Tests the
	// verdicts the minimization asked for.
	Commands int
	Original int
	Tests    int
	// Data is the fixture file.
	Data []byte
	// Written says what became of the file, set by whoever writes it.
	Written string
}

// StreamVerdict is one verdict on one generated stream: the built-in
// validator's, or an implementation's as the harness judges it.
type StreamVerdict struct {
	// Outcome is "success" or "error"; empty when the implementation gave
	// no verdict (NoVerdict says why).
	Outcome string
	Phase   string
	Code    string
	// CommandIndex is the failing command, -1 when none is named.
	CommandIndex int
	// Rule is the rule the built-in validator applied; for the command
	// schema, "command schema" and the command's name.
	Rule string
	// Replies is what is wrong with an executing implementation's
	// readback replies (Level 2), empty when they have the right shape.
	Replies   string
	NoVerdict string
	// NotClaimed is set when the validator's verdict fails the stream in a
	// phase the implementation does not perform: the stream was not sent.
	NotClaimed bool
}

// The kinds of generated stream, as StreamKindCount counts them; a
// Disagreement's Kind names the rule an aimed stream was aimed at after a
// space ("breaks R1").
const (
	// StreamMutation is a mutation of a corpus stream.
	StreamMutation = "mutation"
	// StreamSatisfies is a stream aimed to just satisfy a rule,
	// StreamBreaks one aimed to just break it.
	StreamSatisfies = "satisfies"
	StreamBreaks    = "breaks"
)
