// Package harness is the runtime conformance harness: it starts DRP2
// implementations as processes, talks to them in the JSON-lines adapter
// protocol of docs/harness.md, sends them the selected fixtures, and judges
// their verdicts with the runner's own matching (Level 1) and their readback
// replies against the requests (Level 2, CONFORMANCE.md).
package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/drp2/drp2-fixtures/report/escape"
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
}

// Adapter is the device an implementation runs on, in its own words.
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

// Verdict is an implementation's primary result for one fixture.
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

// encode renders one message as one line, through escape.LogJSON, so that
// a message quoting a fixture ("##[error]") cannot run as a workflow
// command where the adapter's output is a step log.
func encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(escape.LogJSON(b), '\n'), nil
}

// DecodeHello reads an implementation's answer to hello.
func DecodeHello(line []byte) (*Hello, error) {
	// The type and protocol number are read first, leniently, so that a
	// newer adapter hears about the version and not about new fields.
	var head struct {
		Type     string `json:"type"`
		Protocol int    `json:"protocol"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return nil, fmt.Errorf("not a protocol message: %v", err)
	}
	if head.Type != TypeHello {
		return nil, fmt.Errorf("expected a %q message, got type %q", TypeHello, head.Type)
	}
	if head.Protocol < MinProtocolVersion || head.Protocol > ProtocolVersion {
		return nil, fmt.Errorf("it speaks protocol %d; this harness speaks %d to %d", head.Protocol, MinProtocolVersion, ProtocolVersion)
	}
	var h Hello
	if err := strictDecode(line, &h); err != nil {
		return nil, err
	}
	if strings.TrimSpace(h.Name) == "" {
		return nil, fmt.Errorf("its hello has no name")
	}
	if h.Protocol < 2 && (h.Phases != nil || h.Adapter != nil || h.Error != "") {
		return nil, fmt.Errorf("phases, adapter and error are members of protocol 2; its hello says protocol %d", h.Protocol)
	}
	seen := map[string]bool{}
	for _, p := range h.Phases {
		if !slices.Contains(Phases, p) {
			return nil, fmt.Errorf("phases: %q is not one of %s", p, strings.Join(Phases, ", "))
		}
		if seen[p] {
			return nil, fmt.Errorf("phases: %q is listed twice", p)
		}
		seen[p] = true
	}
	if h.Phases != nil && len(h.Phases) == 0 {
		return nil, fmt.Errorf("phases is empty: an implementation performs at least one phase")
	}
	return &h, nil
}

// Claims reports whether the implementation that said hello performs
// phase. Without a phases member it performs all three (protocol 1).
func (h *Hello) Claims(phase string) bool {
	return h.Phases == nil || slices.Contains(h.Phases, phase)
}

// DecodeVerdict reads an implementation's answer to fixture seq in the
// protocol version it said hello in.
func DecodeVerdict(line []byte, seq, protocol int) (*Verdict, error) {
	var v Verdict
	if err := strictDecode(line, &v); err != nil {
		return nil, err
	}
	if v.Type != TypeVerdict {
		return nil, fmt.Errorf("out of turn: expected a %q message for fixture %d, got type %q", TypeVerdict, seq, v.Type)
	}
	if v.Seq != seq {
		return nil, fmt.Errorf("out of turn: expected the verdict for fixture %d, got one for %d", seq, v.Seq)
	}
	switch v.Outcome {
	case "success":
		if v.Phase != "" || v.Code != "" || v.CommandIndex != nil {
			return nil, fmt.Errorf("a success verdict carries no phase, code or command_index")
		}
	case "error":
		if v.Code == "" || (v.Phase == "" && protocol < 2) {
			if protocol < 2 {
				return nil, fmt.Errorf("an error verdict needs a phase and a code")
			}
			return nil, fmt.Errorf("an error verdict needs a code")
		}
		if v.CommandIndex != nil && *v.CommandIndex < 0 {
			return nil, fmt.Errorf("command_index %d is negative", *v.CommandIndex)
		}
	default:
		return nil, fmt.Errorf("outcome %q is neither \"success\" nor \"error\"", v.Outcome)
	}
	return &v, nil
}

// strictDecode decodes one JSON object, refusing unknown members (a typo in
// an adapter should be an error, not a silently missing field) and anything
// after the object.
func strictDecode(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a protocol message: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("not a protocol message: more than one JSON value on the line")
	}
	return nil
}
