// Package protocol is the JSON-lines adapter protocol of docs/harness.md
// and nothing else: its messages, its versions, and the codec that both
// sides use, the harness to read an implementation's answers and an
// adapter to read the harness's requests. Processes, timeouts and judging
// belong to internal/harness. The transcripts in testdata/transcripts are
// the protocol's executable definition: every implementation in this
// repository replays them.
package protocol

import (
	"encoding/json"
	"slices"
)

// ProtocolVersion is the newest version of the adapter protocol this
// harness speaks; it still accepts an answer in any version from
// MinProtocolVersion up. A change that an existing adapter could misread
// raises it. Version 2 lets an implementation say which phases it performs,
// leave the phase out of an error verdict, name its adapter, and refuse the
// session with a reason.
const (
	ProtocolVersion    = 2
	MinProtocolVersion = 1
)

// Phases are the DRP phases an implementation may claim to perform, in
// the order a stream goes through them.
var Phases = []string{"schema_validation", "semantic_validation", "capability_validation"}

// Message types.
const (
	TypeHello   = "hello"
	TypeFixture = "fixture"
	TypeVerdict = "verdict"
	TypeGoodbye = "goodbye"
)

// Hello opens a session. The harness sends Protocol only; the
// implementation answers with the same protocol number and says who it is.
type Hello struct {
	Type     string `json:"type"`
	Protocol int    `json:"protocol"`
	// The implementation's answer.
	Name         string          `json:"name,omitempty"`
	Version      string          `json:"version,omitempty"`
	DRP2Versions []string        `json:"drp2_versions,omitempty"`
	Executes     bool            `json:"executes,omitempty"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// Protocol 2. Phases are the phases it performs (absent: all three);
	// Adapter is the device it runs on; Error, when set, refuses the
	// session: it cannot run here (no GPU adapter, say), and why.
	Phases  []string `json:"phases,omitempty"`
	Adapter *Adapter `json:"adapter,omitempty"`
	Error   string   `json:"error,omitempty"`
	// MemoryLimit, in bytes, asks the harness to stop the implementation
	// when its processes use more while a fixture runs: the harness is the
	// one watcher that needs no thread of the implementation's and no
	// process of its own to keep it.
	MemoryLimit int64 `json:"memory_limit,omitempty"`
}

// Claims reports whether the implementation that said hello performs
// phase. Without a phases member it performs all three (protocol 1).
func (h *Hello) Claims(phase string) bool {
	return h.Phases == nil || slices.Contains(h.Phases, phase)
}

// Adapter is the device an implementation runs on, in its own words: the
// adapter member of its hello (recorded as a model.GPUAdapter). It keeps
// the name of the member: the codec's error for a member of the wrong
// type names the Go type ("Go struct field Adapter.adapter.vendor"), and
// the transcripts pin those words.
type Adapter struct {
	Vendor       string `json:"vendor,omitempty"`
	Architecture string `json:"architecture,omitempty"`
	Device       string `json:"device,omitempty"`
	Driver       string `json:"driver,omitempty"`
	Platform     string `json:"platform,omitempty"`
}

// Fixture asks for one verdict. It carries the stream only: never the
// expected block, so that an implementation cannot echo the answer.
type Fixture struct {
	Type         string          `json:"type"`
	Seq          int             `json:"seq"`
	Name         string          `json:"name"`
	Version      json.RawMessage `json:"version"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	Commands     json.RawMessage `json:"commands"`
}

// Verdict is an implementation's primary result for one fixture: the
// protocol's verdict message. It keeps the message's name: the codec's
// error for a member of the wrong type names the Go type ("Go struct
// field Verdict.seq"), and the transcripts pin those words.
type Verdict struct {
	Type    string `json:"type"`
	Seq     int    `json:"seq"`
	Outcome string `json:"outcome"`
	// Phase, Code and CommandIndex are set for outcome "error"; from
	// protocol 2 on, Phase may be left out by an implementation that does
	// not know it.
	Phase        string `json:"phase,omitempty"`
	Code         string `json:"code,omitempty"`
	CommandIndex *int   `json:"command_index,omitempty"`
	Message      string `json:"message,omitempty"`
	// Replies are the QueueSubmitReply messages an executing
	// implementation produced, in the order it produced them.
	Replies []json.RawMessage `json:"replies,omitempty"`
}

// Goodbye ends a session; the implementation exits.
type Goodbye struct {
	Type string `json:"type"`
}
