// Package layout holds a test of the project's import rules: the runner
// never imports a reporter, renderers do no I/O of their own, and only the
// publish packages talk HTTP.
package layout

import (
	"os/exec"
	"strings"
	"testing"

	_ "github.com/drp2/drp2-fixtures/internal/golden"
)

const module = "github.com/drp2/drp2-fixtures/"

// list runs go list over the module with a template.
func list(t *testing.T, args ...string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Skipf("SKIPPED: go list failed: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, rest, _ := strings.Cut(line, ":")
		m[strings.TrimPrefix(pkg, module)] = strings.Fields(rest)
	}
	return m
}

func TestImportRules(t *testing.T) {
	deps := list(t, "-f", "{{.ImportPath}}:{{join .Deps \" \"}}", module+"...")
	imports := list(t, "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", module+"...")
	for _, p := range []string{"runner", "runner/drp2", "report/junit", "publish", "model"} {
		if _, ok := deps[p]; !ok {
			t.Fatalf("go list did not list %s", p)
		}
	}
	for pkg, ds := range deps {
		for _, d := range ds {
			d = strings.TrimPrefix(d, module)
			if (pkg == "runner" || strings.HasPrefix(pkg, "runner/")) && (strings.HasPrefix(d, "report") || d == "publish" || d == "action" || d == "cli") {
				t.Errorf("%s depends on %s: the runner never knows its reporters", pkg, d)
			}
			if strings.HasPrefix(pkg, "report/") && (d == "runner" || d == "publish" || d == "action" || d == "cli") {
				t.Errorf("%s depends on %s: renderers know only the model", pkg, d)
			}
		}
	}
	for pkg, is := range imports {
		for _, i := range is {
			if i == "net/http" && pkg != "publish" && !strings.HasPrefix(pkg, "publish/") {
				t.Errorf("%s imports net/http: only publish talks HTTP", pkg)
			}
			if strings.HasPrefix(pkg, "report/") && !strings.HasPrefix(pkg, "report/internal/") && (i == "os" || i == "net" || i == "io/ioutil") {
				t.Errorf("%s imports %s: a renderer writes only to its writer", pkg, i)
			}
		}
	}
	if len(deps["model"]) > 0 {
		for _, d := range deps["model"] {
			if strings.Contains(d, ".") {
				t.Errorf("model depends on %s: it imports only the standard library", d)
			}
		}
	}
}
