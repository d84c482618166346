package release

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// unpinnedActions lists, per job of a workflow, the actions it uses by a
// movable reference although the job's token can write: a moved tag would
// run someone else's code with that token. Local actions (./...) and
// images pinned by digest are fine; anything else needs a full commit SHA
// and a comment naming the version. A job without any permissions block
// gets the repository's default token, which may write: it counts as
// writing. The workflow is read line by line, by indentation, which is
// enough for the project's own files.
func unpinnedActions(workflow string) []string {
	lines := strings.Split(workflow, "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	// permissionsAt reads the permissions block starting at line i: true
	// when it grants any write.
	permissionsAt := func(i int) bool {
		_, value, _ := strings.Cut(lines[i], "permissions:")
		value = strings.TrimSpace(value)
		if value != "" {
			return strings.Contains(value, "write")
		}
		for j := i + 1; j < len(lines) && (strings.TrimSpace(lines[j]) == "" || indent(lines[j]) > indent(lines[i])); j++ {
			v := strings.SplitN(lines[j], "#", 2)[0]
			if strings.HasSuffix(strings.TrimSpace(v), ": write") {
				return true
			}
		}
		return false
	}
	topLevel := true
	for i, l := range lines {
		if strings.HasPrefix(l, "permissions:") {
			topLevel = permissionsAt(i)
		}
	}
	pinned := regexp.MustCompile(`^[^@\s]+@[0-9a-f]{40} # v[0-9][0-9.]*$`)
	uses := regexp.MustCompile(`^\s*(?:- )?uses:\s*(.*)$`)
	var bad []string
	inJobs := false
	for i := 0; i < len(lines); i++ {
		if lines[i] == "jobs:" {
			inJobs = true
			continue
		}
		if !inJobs || indent(lines[i]) != 2 || !strings.HasSuffix(strings.TrimSpace(lines[i]), ":") {
			continue
		}
		job := strings.TrimSuffix(strings.TrimSpace(lines[i]), ":")
		end := i + 1
		for end < len(lines) && (strings.TrimSpace(lines[end]) == "" || indent(lines[end]) > 2) {
			end++
		}
		writes := topLevel
		var used []string
		for j := i + 1; j < end; j++ {
			if indent(lines[j]) == 4 && strings.HasPrefix(strings.TrimSpace(lines[j]), "permissions:") {
				writes = permissionsAt(j)
			}
			if m := uses.FindStringSubmatch(lines[j]); m != nil {
				used = append(used, strings.TrimSpace(m[1]))
			}
		}
		if writes {
			for _, u := range used {
				if strings.HasPrefix(u, "./") || regexp.MustCompile(`^docker://\S+@sha256:[0-9a-f]{64}$`).MatchString(u) || pinned.MatchString(u) {
					continue
				}
				bad = append(bad, job+": "+u)
			}
		}
		i = end - 1
	}
	return bad
}

func TestWorkflowsPinActionsWhereTheTokenWrites(t *testing.T) {
	files, _ := filepath.Glob("../../.github/workflows/*.yml")
	if len(files) == 0 {
		t.Fatal("no workflows")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range unpinnedActions(string(src)) {
			t.Errorf("%s: %s is not pinned by commit SHA with a version comment, in a job whose token can write", filepath.Base(f), b)
		}
	}
	// The release workflow's writing jobs use third-party actions at all,
	// so the check above has something to check there.
	src, _ := os.ReadFile("../../.github/workflows/release.yml")
	if !strings.Contains(string(src), "docker/build-push-action@") || !strings.Contains(string(src), "packages: write") {
		t.Error("release.yml no longer pushes the image with build-push-action: revisit this test")
	}
}

func TestUnpinnedActionsCatchesMovableReferences(t *testing.T) {
	const sha = "11bd71901bbe5b1630ceea73d27597364c9af683"
	workflow := `name: x
on: push
permissions:
  contents: read
jobs:
  reads:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
  writes:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      packages: write # push
    steps:
      - uses: actions/checkout@` + sha + ` # v4.2.2
      - uses: docker/login-action@v3
      - uses: ./
      - name: x
        uses: docker/build-push-action@` + sha + `
  flow:
    runs-on: ubuntu-latest
    permissions: { contents: write }
    steps:
      - uses: actions/checkout@main
`
	got := strings.Join(unpinnedActions(workflow), "\n")
	want := "writes: docker/login-action@v3\nwrites: docker/build-push-action@" + sha + "\nflow: actions/checkout@main"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	noPermissions := "on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: a/b@v1\n"
	if got := unpinnedActions(noPermissions); len(got) != 1 {
		t.Errorf("a job with the default token: %v", got)
	}
}

// TestWorkflowsPinEveryAction: the project's workflows pin every action
// they use by commit SHA, read-only jobs too: a moved tag would still run
// someone else's code on the project's checkout and in its CI verdict.
func TestWorkflowsPinEveryAction(t *testing.T) {
	files, _ := filepath.Glob("../../.github/workflows/*.yml")
	pinned := regexp.MustCompile(`^[^@\s]+@[0-9a-f]{40} # v[0-9][0-9.]*$`)
	uses := regexp.MustCompile(`(?m)^\s*(?:- )?uses:\s*(.*)$`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(src), -1) {
			if u := strings.TrimSpace(m[1]); !strings.HasPrefix(u, "./") && !pinned.MatchString(u) {
				t.Errorf("%s: %s is not pinned by commit SHA with a version comment", filepath.Base(f), u)
			}
		}
	}
}
