package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/release"
)

const commit = "459f3dd871defd23417fdbeca0dc9f38c52ad4e5"

// setupScript is the setup action's script, found before any test changes
// the working directory.
var setupScript, _ = filepath.Abs("../../scripts/setup/install.sh")

// releaseServer serves folder as the assets of the releases v9.8.7 and
// latest of drp2/drp2-fixtures, as github.com's download URLs name them.
func releaseServer(t *testing.T, folder string) *httptest.Server {
	t.Helper()
	files := http.FileServer(http.Dir(folder))
	mux := http.NewServeMux()
	for _, prefix := range []string{"/drp2/drp2-fixtures/releases/download/v9.8.7/", "/drp2/drp2-fixtures/releases/latest/download/"} {
		mux.Handle(prefix, http.StripPrefix(prefix, files))
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

type install struct {
	code          int
	stderr        string
	dir, ghPath   string
	outputs       string
	installedPath string
}

// runSetup runs the setup action's script as the composite step does, on
// this machine's platform.
func runSetup(t *testing.T, server, version string, extra ...string) install {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("SKIPPED: no bash")
	}
	for _, tool := range []string{"curl", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPED: no %s", tool)
		}
	}
	tmp := t.TempDir()
	in := install{dir: filepath.Join(tmp, "runner-temp", "drp2-fixtures"), ghPath: filepath.Join(tmp, "github_path"), outputs: filepath.Join(tmp, "github_output")}
	cmd := exec.Command(bash, setupScript)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + tmp,
		"DRP2_VERSION=" + version, "DRP2_REPOSITORY=drp2/drp2-fixtures", "DRP2_SERVER_URL=" + server,
		"RUNNER_TEMP=" + filepath.Join(tmp, "runner-temp"), "GITHUB_PATH=" + in.ghPath, "GITHUB_OUTPUT=" + in.outputs,
	}, extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	in.stderr = stderr.String()
	if err != nil {
		in.code = cmd.ProcessState.ExitCode()
	}
	in.installedPath = filepath.Join(in.dir, "drp2-fixtures")
	return in
}

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

// fakeRelease packs a shell script that prints a version line as this
// platform's archive, with its checksum, into a new folder.
func fakeRelease(t *testing.T, versionLine string) string {
	t.Helper()
	target := release.Target{OS: runtime.GOOS, Arch: runtime.GOARCH}
	if target.OS == "windows" {
		t.Skip("SKIPPED: the fake binary is a shell script")
	}
	script := "#!/bin/sh\necho '" + versionLine + "'\n"
	var buf bytes.Buffer
	if err := release.WriteArchive(&buf, target, []release.File{{Name: target.Binary(), Mode: 0o755, Data: []byte(script)}}, time.Unix(1e9, 0)); err != nil {
		t.Fatal(err)
	}
	dist := t.TempDir()
	os.WriteFile(filepath.Join(dist, target.Archive()), buf.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dist, release.ChecksumsFile), release.Checksums([]release.Asset{{Name: target.Archive(), Data: buf.Bytes()}}), 0o644)
	return dist
}

func TestSetupRefuses(t *testing.T) {
	target := release.Target{OS: runtime.GOOS, Arch: runtime.GOARCH}
	t.Run("a tampered archive", func(t *testing.T) {
		dist := fakeRelease(t, "drp2-fixtures v9.8.7 (commit 459f3dd871de)")
		f, _ := os.OpenFile(filepath.Join(dist, target.Archive()), os.O_APPEND|os.O_WRONLY, 0)
		f.Write([]byte("x"))
		f.Close()
		in := runSetup(t, releaseServer(t, dist).URL, "v9.8.7")
		if in.code == 0 || !strings.Contains(in.stderr, "but checksums.txt says") {
			t.Errorf("exit %d: %s", in.code, in.stderr)
		}
		if _, err := os.Stat(in.installedPath); err == nil {
			t.Error("a tampered binary was installed")
		}
	})
	t.Run("an archive checksums.txt does not list", func(t *testing.T) {
		dist := fakeRelease(t, "drp2-fixtures v9.8.7")
		os.WriteFile(filepath.Join(dist, release.ChecksumsFile), release.Checksums([]release.Asset{{Name: "other.tar.gz", Data: nil}}), 0o644)
		in := runSetup(t, releaseServer(t, dist).URL, "v9.8.7")
		if in.code == 0 || !strings.Contains(in.stderr, "lists no sha256 for "+target.Archive()) {
			t.Errorf("exit %d: %s", in.code, in.stderr)
		}
	})
	t.Run("a binary of another release", func(t *testing.T) {
		dist := fakeRelease(t, "drp2-fixtures v9.8.6 (commit 459f3dd871de)")
		in := runSetup(t, releaseServer(t, dist).URL, "v9.8.7")
		if in.code == 0 || !strings.Contains(in.stderr, "asked for v9.8.7, but the binary says: drp2-fixtures v9.8.6") {
			t.Errorf("exit %d: %s", in.code, in.stderr)
		}
	})
	t.Run("a release that does not exist", func(t *testing.T) {
		in := runSetup(t, releaseServer(t, t.TempDir()).URL, "v9.8.7")
		if in.code == 0 || !strings.Contains(in.stderr, "could not download") {
			t.Errorf("exit %d: %s", in.code, in.stderr)
		}
	})
	for _, bad := range []string{"v1", "v1.2.3/../../x", "$(id)", "main"} {
		in := runSetup(t, "http://127.0.0.1:1", bad)
		if in.code == 0 || !strings.Contains(in.stderr, "version must be vMAJOR.MINOR.PATCH or latest") {
			t.Errorf("version %q: exit %d: %s", bad, in.code, in.stderr)
		}
	}
	in := runSetup(t, "http://127.0.0.1:1", "v9.8.7", "DRP2_REPOSITORY=drp2/x/../y")
	if in.code == 0 || !strings.Contains(in.stderr, "repository must be OWNER/NAME") {
		t.Errorf("repository: exit %d: %s", in.code, in.stderr)
	}
}

func TestRunRefusesBadStamps(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"binaries", "-version", "1.2.3", "-commit", commit}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "vMAJOR.MINOR.PATCH") {
		t.Errorf("binaries with a bad version: %v", err)
	}
	if err := run([]string{"binaries", "-version", "v1.2.3", "-commit", commit, "-targets", "plan9/386"}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), `no release target "plan9/386"`) {
		t.Errorf("binaries for an unknown target: %v", err)
	}
	if err := run([]string{"frobnicate"}, &stdout, &stderr); err == nil || !strings.Contains(stderr.String(), "usage:") {
		t.Errorf("unknown subcommand: %v", err)
	}
}

func names(files []release.File) []string {
	var n []string
	for _, f := range files {
		n = append(n, f.Name)
	}
	return n
}
