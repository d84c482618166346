// Package harness is the runtime conformance harness: it starts DRP2
// implementations as processes, talks to them in the JSON-lines adapter
// protocol of docs/harness.md (internal/protocol), sends them the selected
// fixtures, and judges their verdicts with the runner's own matching
// (Level 1) and their readback replies against the requests (Level 2,
// CONFORMANCE.md).
package harness

import "github.com/drp2/drp2-fixtures/internal/protocol"

// The protocol's messages as the harness's callers see them: the gate's
// adapter builds its Hello here and the explorer reads Verdicts, through
// the harness that speaks the protocol rather than the protocol itself.
// The aliases are protocol's own types, so a value passes between the two
// packages unchanged.
type (
	Hello   = protocol.Hello
	Fixture = protocol.Fixture
	Verdict = protocol.Verdict
	Goodbye = protocol.Goodbye
)

// The version and the message types, as protocol has them.
const (
	ProtocolVersion = protocol.ProtocolVersion
	TypeHello       = protocol.TypeHello
	TypeFixture     = protocol.TypeFixture
	TypeVerdict     = protocol.TypeVerdict
	TypeGoodbye     = protocol.TypeGoodbye
)

// DecodeHello is protocol.DecodeHello.
func DecodeHello(line []byte) (*Hello, error) { return protocol.DecodeHello(line) }

// DecodeVerdict is protocol.DecodeVerdict.
func DecodeVerdict(line []byte, seq, protocolVersion int) (*Verdict, error) {
	return protocol.DecodeVerdict(line, seq, protocolVersion)
}

// encode is protocol.Encode.
func encode(v any) ([]byte, error) { return protocol.Encode(v) }
