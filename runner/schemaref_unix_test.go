//go:build unix

package runner

// Named pipes (FIFOs) are made with mkfifo, which only Unix has.

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A reference to a FIFO inside the schema's folder is refused, not opened
// and waited on.
func TestSchemaReferenceToAFIFOIsRefused(t *testing.T) {
	ws, _ := refWorkspace(t, "./commands/fifo.json", map[string]string{"schema/commands/.keep": ""})
	if err := syscall.Mkfifo(filepath.Join(ws, "schema", "commands", "fifo.json"), 0o644); err != nil {
		t.Skipf("SKIPPED: mkfifo: %v", err)
	}
	wantRefused(t, ws, "not a regular file")
}
