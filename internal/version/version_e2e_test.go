//go:build e2e

// An end-to-end test, built with -tags e2e: it clones the repository and
// builds the binary with go build. .ci/run runs it once.

package version

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A go build from a clone names the commit it was built from: the
// toolchain's record, read through debug.ReadBuildInfo, not "(devel)" alone.
func TestBuildFromAClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds the binary")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("SKIPPED: no git")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command(git, "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("SKIPPED: not a git checkout: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command(git, "clone", "--quiet", "--no-hardlinks", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "drp2-fixtures")
	build := exec.Command("go", "build", "-buildvcs=auto", "-o", bin, "./cmd/drp2-fixtures")
	build.Dir = clone
	// The machine may turn VCS stamping off (GOFLAGS=-buildvcs=false); a
	// user's go build has it on by default.
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "(commit " + strings.TrimSpace(string(head))[:12] + ")"
	if !strings.Contains(string(out), want) {
		t.Errorf("version from a clone: %q, want it to contain %q", out, want)
	}
}
