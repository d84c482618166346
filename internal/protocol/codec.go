package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Encode renders one message as one line, ending in '\n'. Every '#' before
// a '[' is written as the JSON escape \u0023, so that a message quoting a
// fixture ("##[error]") cannot run as a legacy workflow command where the
// line lands in an Actions step log; in JSON the two characters meet only
// inside strings, where the escape reads back as '#'. (No line can start
// with "::" either: it starts with '{', and a string's line breaks are
// escaped.) This is report/escape.LogJSON, repeated here so that the
// protocol imports no renderer; a test holds the two to the same output.
func Encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b = bytes.ReplaceAll(b, []byte("#["), []byte(`\u0023[`))
	return append(b, '\n'), nil
}

// Head is the part of every message read before the rest: its type and,
// for hello, the protocol version.
type Head struct {
	Type     string `json:"type"`
	Protocol int    `json:"protocol"`
}

// DecodeHead reads the type and protocol number of a line leniently
// (unknown members are allowed), so that a newer peer hears about the
// version and not about members it does not know.
func DecodeHead(line []byte) (Head, error) {
	// An anonymous struct, as before Head existed: encoding/json names
	// the type in its errors, and those reach the reports.
	var h struct {
		Type     string `json:"type"`
		Protocol int    `json:"protocol"`
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return Head{}, fmt.Errorf("not a protocol message: %v", err)
	}
	return Head(h), nil
}

// DecodeHello reads an implementation's answer to hello.
func DecodeHello(line []byte) (*Hello, error) {
	head, err := DecodeHead(line)
	if err != nil {
		return nil, err
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
	if h.Protocol < 2 && h.MemoryLimit != 0 {
		return nil, fmt.Errorf("memory_limit is a member of protocol 2; its hello says protocol %d", h.Protocol)
	}
	if h.MemoryLimit < 0 {
		return nil, fmt.Errorf("its hello's memory_limit is %d: want a positive number of bytes", h.MemoryLimit)
	}
	if err := checkPhases(h.Phases); err != nil {
		return nil, err
	}
	return &h, nil
}

// checkPhases accepts a hello's phases: absent, or a non-empty list of
// known phases without repeats.
func checkPhases(phases []string) error {
	seen := map[string]bool{}
	for _, p := range phases {
		if !slices.Contains(Phases, p) {
			return fmt.Errorf("phases: %q is not one of %s", p, strings.Join(Phases, ", "))
		}
		if seen[p] {
			return fmt.Errorf("phases: %q is listed twice", p)
		}
		seen[p] = true
	}
	if phases != nil && len(phases) == 0 {
		return fmt.Errorf("phases is empty: an implementation performs at least one phase")
	}
	return nil
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

// DecodeFixture reads a fixture request, the adapter side's one message
// with content.
func DecodeFixture(line []byte) (*Fixture, error) {
	var f Fixture
	if err := strictDecode(line, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

// AnswerHello is the hello me, of an adapter that speaks this package's
// versions, answering a harness that said hello in protocol asked: in
// that version when the adapter speaks it, else (a newer harness) in the
// adapter's newest, which that harness accepts or refuses with both
// numbers. A version-1 answer carries no member of version 2. A harness
// older than MinProtocolVersion is not answered.
func AnswerHello(me Hello, asked int) (Hello, error) {
	if asked < MinProtocolVersion {
		return Hello{}, fmt.Errorf("the harness speaks protocol %d; this adapter speaks %d to %d", asked, MinProtocolVersion, ProtocolVersion)
	}
	me.Type, me.Protocol = TypeHello, min(asked, ProtocolVersion)
	if me.Protocol < 2 {
		me.Phases, me.Adapter, me.Error, me.MemoryLimit = nil, nil, "", 0
	}
	return me, nil
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
