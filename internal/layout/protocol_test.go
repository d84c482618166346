package layout

import (
	"strings"
	"testing"
)

// TestProtocolImports: the adapter protocol imports nothing of the module
// but the JSON scanner. It is what the harness, its adapter side and the
// Node and Python adapters agree on; what the harness does with a message
// (processes, judging, reports) stays out of it.
func TestProtocolImports(t *testing.T) {
	deps := list(t, "-f", "{{.ImportPath}}:{{join .Deps \" \"}}", module+"internal/protocol")
	ds, ok := deps["internal/protocol"]
	if !ok {
		t.Fatal("go list did not list internal/protocol")
	}
	for _, d := range ds {
		if d, ok := strings.CutPrefix(d, module); ok && d != "internal/jsonpos" {
			t.Errorf("internal/protocol depends on %s: the adapter protocol needs nothing of the module but the JSON scanner", d)
		}
	}
}
