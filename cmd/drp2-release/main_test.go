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
	for _, bad := range []string{"v1", "v1.2.3/../../x", "$(id)", "main", "v1.2.3\n::warning::forged", "v1\r\n::add-mask::x %0A"} {
		in := runSetup(t, "http://127.0.0.1:1", bad)
		if in.code == 0 || !strings.Contains(in.stderr, "version must be vMAJOR.MINOR.PATCH or latest") {
			t.Errorf("version %q: exit %d: %s", bad, in.code, in.stderr)
		}
		// The version is shown as a workflow command's data: one line, no
		// command of its own.
		if lines := strings.Split(strings.TrimSuffix(in.stderr, "\n"), "\n"); len(lines) != 1 || strings.Contains(in.stderr, "\r") {
			t.Errorf("version %q: the error spans lines: %q", bad, in.stderr)
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
