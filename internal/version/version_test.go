package version

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func settings(kv ...string) []debug.BuildSetting {
	var s []debug.BuildSetting
	for i := 0; i < len(kv); i += 2 {
		s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
	}
	return s
}

func TestFormat(t *testing.T) {
	const rev = "459f3dd871defd23417fdbeca0dc9f38c52ad4e5"
	for _, c := range []struct {
		name, release, commit string
		info                  *debug.BuildInfo
		want                  string
	}{
		{"release stamped", "v1.2.3", rev, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v1.2.3 (commit 459f3dd871de)"},
		{"release without commit", "v1.2.3", "", nil, "v1.2.3"},
		{"release stamped, built in a clone with changes", "v1.2.3", rev, &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "0123456789abcdef", "vcs.modified", "true"),
		}, "v1.2.3 (commit 459f3dd871de)"},
		{"go install module@version", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"go build in a clone", "", "", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261130193818-459f3dd871de"},
			Settings: settings("vcs", "git", "vcs.revision", rev, "vcs.modified", "false"),
		}, "v0.0.0-20261130193818-459f3dd871de (commit 459f3dd871de)"},
		{"go build in a clone with changes", "", "", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true"),
		}, "(devel) (commit 459f3dd871de, modified)"},
		{"the toolchain says +dirty itself", "", "", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261130193818-459f3dd871de+dirty"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true"),
		}, "v0.0.0-20261130193818-459f3dd871de+dirty (commit 459f3dd871de)"},
		{"go run", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"no build info", "", "", nil, "(devel)"},
	} {
		if got := format(c.release, c.commit, c.info); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

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
