package action

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/workspace"
)

// output is one step output.
type output struct{ name, value string }

// writeOutputs appends outputs to the GITHUB_OUTPUT file in the multiline
// form with a random delimiter, so that no value can end its own entry
// early (go-githubactions uses a fixed one). An empty path (a run outside
// Actions) writes nothing. Values go through red, like every text the
// action writes. A file that cannot be written is a record lost, as a job
// summary that cannot be written is (exit.Record).
func writeOutputs(path string, outs []output, red *secret.Redactor) error {
	if path == "" {
		return nil
	}
	var b strings.Builder
	for _, o := range outs {
		o.value = red.String(o.value)
		delim, err := delimiter(o.value)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", o.name, delim, o.value, delim)
	}
	if err := workspace.Append(path, []byte(b.String())); err != nil {
		return exit.Errorf(exit.Record, "write the step outputs to GITHUB_OUTPUT: %w", err)
	}
	return nil
}

// delimiter returns a random token that does not occur in value.
func delimiter(value string) (string, error) {
	for {
		var raw [16]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return "", fmt.Errorf("random delimiter: %w", err)
		}
		d := "ghadelimiter_" + hex.EncodeToString(raw[:])
		if !strings.Contains(value, d) {
			return d, nil
		}
	}
}

// randomToken is a token for ::stop-commands::.
func randomToken() string {
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		// crypto/rand does not fail on Linux; a fixed token still stops
		// commands, only less safely against a crafted log line.
		return "drp2-fixtures-stop"
	}
	return hex.EncodeToString(raw[:])
}
