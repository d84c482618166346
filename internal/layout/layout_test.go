// Package layout holds a test of the project's import rules: the runner
// never imports a reporter, renderers know only the model and do no I/O of
// their own, only internal/github talks HTTP, and the model imports only the
// standard library and is data: no fmt, no struct tags (model_test.go).
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

func under(pkg, root string) bool { return pkg == root || strings.HasPrefix(pkg, root+"/") }

// renderer is a package of pure renderers: everything below report/
// except its test samples. The table of formats, report itself, joins the
// renderers to the documents of the use cases.
func renderer(pkg string) bool {
	return strings.HasPrefix(pkg, "report/") && !under(pkg, "report/internal")
}

// jsonPackage is one of the raw JSON packages: internal/jsonpos, the
// scanner, and those beside it. The runner imports them, one layer above
// the last the budget allows, so they stay leaves.
func jsonPackage(pkg string) bool { return strings.HasPrefix(pkg, "internal/json") }

// frontEnd is a package of the command line and the action.
func frontEnd(pkg string) bool {
	return under(pkg, "internal/cli")
}

func TestImportRules(t *testing.T) {
	deps := list(t, "-f", "{{.ImportPath}}:{{join .Deps \" \"}}", module+"...")
	imports := list(t, "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", module+"...")
	for _, p := range []string{"runner", "runner/drp2", "runner/schema", "report/junit", "internal/github", "model", "internal/jsonpos", "internal/cli", "internal/cli/action"} {
		if _, ok := deps[p]; !ok {
			t.Fatalf("go list did not list %s", p)
		}
	}
	for pkg, ds := range deps {
		for _, d := range ds {
			if !strings.HasPrefix(d, module) {
				continue
			}
			d = strings.TrimPrefix(d, module)
			if under(pkg, "runner") && (under(d, "report") || frontEnd(d)) {
				t.Errorf("%s depends on %s: the runner never knows its reporters", pkg, d)
			}
			if renderer(pkg) && (under(d, "runner") || under(d, "internal/github") || frontEnd(d)) {
				t.Errorf("%s depends on %s: renderers know only the model", pkg, d)
			}
			if jsonPackage(pkg) {
				t.Errorf("%s depends on %s: the JSON packages import nothing from the module", pkg, d)
			}
			if pkg == "model" {
				t.Errorf("model depends on %s: it imports only the standard library", d)
			}
		}
	}
	for pkg, is := range imports {
		for _, i := range is {
			if i == "net/http" && !under(pkg, "internal/github") {
				t.Errorf("%s imports net/http: only internal/github talks HTTP", pkg)
			}
			if renderer(pkg) && (i == "os" || i == "net" || i == "io/ioutil") {
				t.Errorf("%s imports %s: a renderer writes only to its writer", pkg, i)
			}
		}
	}
	for _, d := range deps["model"] {
		if strings.Contains(d, ".") {
			t.Errorf("model depends on %s: it imports only the standard library", d)
		}
	}
}
