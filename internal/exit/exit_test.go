package exit

import (
	"errors"
	"fmt"
	"testing"
)

// Each kind means its one exit code, through any wrapping, and an error of
// no kind is the tool's own failure.
func TestCode(t *testing.T) {
	base := errors.New("cause")
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, OK},
		{"no kind", base, Internal},
		{"verdict", New(Verdict, base), Failed},
		{"invocation", New(Invocation, base), Usage},
		{"input", Errorf(Input, "read: %w", base), Usage},
		{"record", New(Record, base), Usage},
		{"tool", New(Tool, base), Internal},
		{"wrapped", fmt.Errorf("run: %w", New(Record, base)), Usage},
		{"the first kind of a join", errors.Join(New(Tool, base), New(Record, base)), Internal},
		{"SIGINT", &Interruption{Signal: "SIGINT", Number: 2}, 130},
		{"SIGTERM, wrapped", fmt.Errorf("run: %w", &Interruption{Signal: "SIGTERM", Number: 15}), 143},
		{"SIGTERM before a record", errors.Join(&Interruption{Signal: "SIGTERM", Number: 15}, New(Record, base)), 143},
	} {
		if got := Code(c.err); got != c.want {
			t.Errorf("%s: code %d, want %d", c.name, got, c.want)
		}
	}
	if k := KindOf(fmt.Errorf("run: %w", &Interruption{Signal: "SIGTERM", Number: 15})); k != Interrupted || k.Code() != 130 {
		t.Errorf("an interruption is of kind %v, code %d", k, k.Code())
	}
	if New(Input, nil) != nil {
		t.Error("New gave nil a kind")
	}
	if err := Errorf(Input, "read: %w", base); !errors.Is(err, base) || err.Error() != "read: cause" || KindOf(err) != Input {
		t.Errorf("Errorf: %v, kind %v", err, KindOf(err))
	}
}

// A joined error prints a line for each of its errors; nil prints none.
func TestLines(t *testing.T) {
	if got := Lines(nil); got != nil {
		t.Errorf("nil: %q", got)
	}
	err := errors.Join(New(Record, errors.New("write a.json: denied")), errors.New("manifest: stale"))
	if got := fmt.Sprintf("%q", Lines(err)); got != `["write a.json: denied" "manifest: stale"]` {
		t.Errorf("joined: %s", got)
	}
}
