package action_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/cli/action"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestActionlint lints the project's workflows and a workflow that uses the
// action with every input, and checks that actionlint does reject an input
// action.yml lacks (so a clean result means something).
func TestActionlint(t *testing.T) {
	bin, err := exec.LookPath("actionlint")
	if err != nil {
		t.Skip("SKIPPED: actionlint is not on PATH; install it with go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	}
	workflows, _ := filepath.Glob("../../../.github/workflows/*.yml")
	if len(workflows) == 0 {
		t.Fatal("no workflows under .github/workflows")
	}
	args := append([]string{"-no-color"}, workflows...)
	args = append(args, "internal/cli/action/testdata/uses-every-input.yml")
	for i, a := range args[1:] {
		args[i+1] = strings.TrimPrefix(a, "../../../")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = "../../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint %v: %v\n%s", args, err, out)
	}
	bad := exec.Command(bin, "-no-color", "internal/cli/action/testdata/unknown-input.yml")
	bad.Dir = "../../.."
	out, err := bad.CombinedOutput()
	if err == nil || !strings.Contains(string(out), `input "no-such-input" is not defined`) {
		t.Errorf("actionlint accepted an undeclared input: %v\n%s", err, out)
	}
}

// actionYAMLKeys lists the keys declared under a top-level section of
// action.yml (two-space indented names).
func actionYAMLKeys(t *testing.T, section string) []string {
	t.Helper()
	data, err := os.ReadFile("../../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`^  ([a-z][a-z-]*):`)
	var keys []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && line[0] != ' ' && line[0] != '#' {
			in = line == section+":"
			continue
		}
		if m := key.FindStringSubmatch(line); in && m != nil {
			keys = append(keys, m[1])
		}
	}
	sort.Strings(keys)
	return keys
}

// TestActionYAMLMatchesTheEntry checks that the harness passes every input
// action.yml declares, and that a run writes every output it declares.
func TestActionYAMLMatchesTheEntry(t *testing.T) {
	inputs := actionYAMLKeys(t, "inputs")
	w := newWorkspace(t, "http://127.0.0.1:1", 0, "")
	var passed []string
	for k := range w.Env {
		if name, ok := strings.CutPrefix(k, "INPUT_"); ok {
			passed = append(passed, strings.ToLower(name))
		}
	}
	sort.Strings(passed)
	if strings.Join(inputs, " ") != strings.Join(passed, " ") {
		t.Errorf("action.yml inputs %v\nharness inputs    %v", inputs, passed)
	}

	w.Env["INPUT_GITHUB-TOKEN"] = "" // no API: only the outputs matter here
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 1)
	r := w.Run(t, inProcess)
	var written []string
	for k := range r.Outputs {
		written = append(written, k)
	}
	sort.Strings(written)
	if outputs := actionYAMLKeys(t, "outputs"); strings.Join(outputs, " ") != strings.Join(written, " ") {
		t.Errorf("action.yml outputs %v\nwritten outputs    %v", outputs, written)
	}
}

// TestEntryReadsEveryInputActionYAMLDeclares records the INPUT_* names
// the entry asks the environment for and compares them with the inputs
// action.yml declares: an input declared and never read is ignored without
// a word in every workflow that sets it, and one read but not declared is
// one no workflow can set (actionlint refuses it). The environment holds
// action.yml's defaults (an expression's left empty, as when the runner
// has no value for it), so no input stops the reading early.
func TestEntryReadsEveryInputActionYAMLDeclares(t *testing.T) {
	env := map[string]string{}
	for name, def := range testkit.ActionDefaults(t, "../../../action.yml") {
		if strings.HasPrefix(def, "${{") {
			def = ""
		}
		env["INPUT_"+strings.ToUpper(name)] = def
	}
	asked := map[string]bool{}
	if err := action.ReadInputs(func(k string) string {
		if name, ok := strings.CutPrefix(k, "INPUT_"); ok {
			asked[strings.ToLower(name)] = true
		}
		return env[k]
	}); err != nil {
		t.Fatalf("the defaults of action.yml are unusable input: %v", err)
	}
	var read []string
	for name := range asked {
		read = append(read, name)
	}
	sort.Strings(read)
	if declared := actionYAMLKeys(t, "inputs"); strings.Join(declared, " ") != strings.Join(read, " ") {
		t.Errorf("action.yml inputs %v\ninputs read        %v", declared, read)
	}
}

// TestDocsListEveryInputAndOutput checks that docs/action.md's Inputs and
// Outputs tables name exactly what action.yml declares, so the reference
// cannot drift from the action.
func TestDocsListEveryInputAndOutput(t *testing.T) {
	data, err := os.ReadFile("../../../docs/action.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, section := range []string{"inputs", "outputs"} {
		heading := "## " + strings.ToUpper(section[:1]) + section[1:]
		_, body, ok := strings.Cut(string(data), "\n"+heading+"\n")
		if !ok {
			t.Fatalf("docs/action.md has no %q section", heading)
		}
		body, _, _ = strings.Cut(body, "\n## ")
		var documented []string
		for _, line := range strings.Split(body, "\n") {
			first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
			for _, name := range regexp.MustCompile("`([a-z][a-z-]*)`").FindAllStringSubmatch(first, -1) {
				if strings.HasPrefix(line, "| `") {
					documented = append(documented, name[1])
				}
			}
		}
		sort.Strings(documented)
		if want := actionYAMLKeys(t, section); strings.Join(want, " ") != strings.Join(documented, " ") {
			t.Errorf("action.yml %s %v\ndocs/action.md      %v", section, want, documented)
		}
	}
}
