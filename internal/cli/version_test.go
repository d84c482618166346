//go:build e2e

// An end-to-end test, built with -tags e2e: it builds the binary with go
// build as the Dockerfile does. .ci/run runs it once.

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The release build stamps its version and commit (Dockerfile: -buildvcs=false
// -ldflags -X); version, the JSON report and the JUnit properties carry them.
// The build here passes the Dockerfile's flags, so what the toolchain would
// record of the clone (-buildvcs=auto, Go's default) cannot change the line.
func TestStampedVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "drp2-fixtures")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", bin,
		"-ldflags", "-X github.com/drp2/drp2-fixtures/internal/version.release=v9.8.7"+
			" -X github.com/drp2/drp2-fixtures/internal/version.commit=0123456789abcdef0123", "./cmd/drp2-fixtures")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "drp2-fixtures v9.8.7 (commit 0123456789ab)" {
		t.Errorf("version: %q, %v", out, err)
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "run", "--format", "json", "--junit", "j.xml")
	cmd.Dir = dir // no ./fixtures: the embedded corpus
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	var doc struct {
		Summary struct {
			ToolVersion string `json:"tool_version"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || doc.Summary.ToolVersion != "v9.8.7 (commit 0123456789ab)" {
		t.Errorf("JSON tool_version = %q (%v)", doc.Summary.ToolVersion, err)
	}
	if junit, _ := os.ReadFile(filepath.Join(dir, "j.xml")); !strings.Contains(string(junit), "v9.8.7 (commit 0123456789ab)") {
		t.Errorf("JUnit does not carry the version")
	}
}
