package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The release build stamps its version (Dockerfile: -ldflags -X); version,
// the JSON report and the JUnit properties carry it.
func TestStampedVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "drp2-fixtures")
	build := exec.Command("go", "build", "-o", bin,
		"-ldflags", "-X github.com/drp2/drp2-fixtures/internal/version.release=v9.8.7", "./cmd/drp2-fixtures")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "drp2-fixtures v9.8.7" {
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
	if err := json.Unmarshal(out, &doc); err != nil || doc.Summary.ToolVersion != "v9.8.7" {
		t.Errorf("JSON tool_version = %q (%v)", doc.Summary.ToolVersion, err)
	}
	if junit, _ := os.ReadFile(filepath.Join(dir, "j.xml")); !strings.Contains(string(junit), "v9.8.7") {
		t.Errorf("JUnit does not carry the version")
	}
}
