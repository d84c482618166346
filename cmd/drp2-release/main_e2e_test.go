//go:build e2e

// An end-to-end test, built with -tags e2e: it builds the release
// binaries with go build, which takes longer than the rest of the
// package's tests together. .ci/run runs it once.

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/release"
)

// The release path end to end on this machine's platform: binaries builds
// the archive with the version and commit stamped in and lists it in
// checksums.txt; the setup action's script downloads it, checks it and
// installs a binary that names the release and the commit.
func TestBinariesThenSetup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	host := runtime.GOOS + "/" + runtime.GOARCH
	if host != "linux/amd64" && host != "linux/arm64" && host != "darwin/amd64" && host != "darwin/arm64" {
		t.Skipf("SKIPPED: the setup script's test runs on Linux and macOS, not %s", host)
	}
	dist := t.TempDir()
	t.Chdir("../..")
	t.Setenv("SOURCE_DATE_EPOCH", "1764531498")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"binaries", "-version", "v9.8.7", "-commit", commit, "-out", dist, "-targets", host}, &stdout, &stderr); err != nil {
		t.Fatalf("binaries: %v\n%s", err, stderr.String())
	}
	target := release.Target{OS: runtime.GOOS, Arch: runtime.GOARCH}
	data, err := os.ReadFile(filepath.Join(dist, target.Archive()))
	if err != nil {
		t.Fatal(err)
	}
	files, err := release.ReadArchive(target, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "drp2-fixtures" || files[0].Mode != 0o755 || files[1].Name != "README.md" {
		t.Errorf("archive members: %v", names(files))
	}
	sums, _ := os.ReadFile(filepath.Join(dist, release.ChecksumsFile))
	if parsed, err := release.ParseChecksums(sums); err != nil || len(parsed) != 1 || parsed[target.Archive()] == "" {
		t.Errorf("checksums.txt: %q, %v", sums, err)
	}

	srv := releaseServer(t, dist)
	for _, version := range []string{"v9.8.7", "latest"} {
		in := runSetup(t, srv.URL, version)
		if in.code != 0 {
			t.Fatalf("setup %s: exit %d\n%s", version, in.code, in.stderr)
		}
		out, err := exec.Command(in.installedPath, "version").Output()
		if want := "drp2-fixtures v9.8.7 (commit 459f3dd871de)\n"; err != nil || string(out) != want {
			t.Errorf("installed binary: %q, %v; want %q", out, err, want)
		}
		if p, _ := os.ReadFile(in.ghPath); strings.TrimSpace(string(p)) != in.dir {
			t.Errorf("GITHUB_PATH: %q, want %s", p, in.dir)
		}
		if o, _ := os.ReadFile(in.outputs); !strings.Contains(string(o), "path="+in.installedPath+"\n") || !strings.Contains(string(o), "version=v9.8.7 (commit 459f3dd871de)\n") {
			t.Errorf("outputs: %q", o)
		}
	}
}

func names(files []release.File) []string {
	var n []string
	for _, f := range files {
		n = append(n, f.Name)
	}
	return n
}
