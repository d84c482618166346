package release

import (
	"os"
	"strings"
	"testing"
)

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestPinImageOnTheRealActionYML(t *testing.T) {
	src, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	ref := "docker://ghcr.io/drp2/drp2-fixtures@" + digest
	out, err := PinImage(src, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "\n  image: '"+ref+"'\n") || strings.Contains(string(out), "image: Dockerfile") {
		t.Errorf("image line not replaced:\n%s", out)
	}
	// Everything else stays byte for byte.
	if strings.Replace(string(out), "'"+ref+"'", "Dockerfile", 1) != string(src) {
		t.Error("PinImage changed more than the image line")
	}
	if _, err := PinImage(out, ref); err == nil {
		t.Error("a pinned action.yml was pinned again")
	}
}

func TestPinImageRefusesUnpinnedReferences(t *testing.T) {
	src := []byte("runs:\n  using: docker\n  image: Dockerfile\n  args:\n    - action\n")
	for _, ref := range []string{
		"docker://ghcr.io/drp2/drp2-fixtures:v1",
		"docker://ghcr.io/Drp2/drp2-fixtures@" + digest,
		"ghcr.io/drp2/drp2-fixtures@" + digest,
		"docker://ghcr.io/drp2/drp2-fixtures@sha256:abc",
		"docker://ghcr.io/drp2/drp2-fixtures@" + digest + "\n  evil: x",
	} {
		if _, err := PinImage(src, ref); err == nil {
			t.Errorf("PinImage accepted %q", ref)
		}
	}
	if _, err := PinImage([]byte("runs:\n  using: node20\n  main: x.js\n"), "docker://ghcr.io/a/b@"+digest); err == nil {
		t.Error("a non-Docker action was accepted")
	}
}
