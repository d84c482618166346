package runner

import (
	"errors"
	"fmt"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/exit"
)

// An error of unusable input ends a command with the exit code of
// unusable input, through any wrapping, and a code in front of it wins.
func TestErrInputExitCode(t *testing.T) {
	wrapped := fmt.Errorf("%w: fixture a.json: %w", ErrInput, errors.New("cause"))
	if got := exit.Code(wrapped); got != exit.Usage {
		t.Errorf("unusable input: exit code %d, want %d", got, exit.Usage)
	}
	if got := exit.Code(exit.New(exit.Tool, wrapped)); got != exit.Internal {
		t.Errorf("unusable input wrapped as the tool's failure: exit code %d, want %d", got, exit.Internal)
	}
	if !errors.Is(wrapped, ErrInput) || wrapped.Error() != "unusable input: fixture a.json: cause" {
		t.Errorf("wrapped: %v", wrapped)
	}
}
