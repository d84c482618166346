package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A command a signal stopped exits with the signal's code and says so,
// whatever it was doing: never "context canceled" as the tool's own
// failure (exit 3).
func TestInterruptedCommandExitsBySignal(t *testing.T) {
	for _, args := range [][]string{{"explore", "--count", "2000"}, {"run"}, {"coverage"}} {
		var out, errb bytes.Buffer
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(Interrupted("SIGINT", 2))
		code := Main(ctx, args, Env{Stdout: &out, Stderr: &errb, WorkDir: t.TempDir()})
		if code != 130 || !strings.Contains(errb.String(), "interrupted by SIGINT") {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
		}
		if strings.Contains(errb.String(), "context canceled") {
			t.Errorf("%v: %s", args, errb.String())
		}
	}
}
