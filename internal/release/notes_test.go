package release

import (
	"os"
	"strings"
	"testing"
)

func TestPinSetupVersionOnTheRealFile(t *testing.T) {
	src, err := os.ReadFile("../../scripts/setup/action.yml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := PinSetupVersion(src, "v1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "  version:\n    description: ") || !strings.Contains(string(out), "\n    default: v1.2.3\n") {
		t.Errorf("default not pinned:\n%s", out)
	}
	if strings.Replace(string(out), "default: v1.2.3", "default: latest", 1) != string(src) {
		t.Error("PinSetupVersion changed more than the version default")
	}
	if _, err := PinSetupVersion(out, "v1.2.4"); err == nil {
		t.Error("a pinned setup action was pinned again")
	}
	for _, bad := range []string{"latest", "1.2.3", "v1.2.3\n    evil: x"} {
		if _, err := PinSetupVersion(src, bad); err == nil {
			t.Errorf("accepted version %q", bad)
		}
	}
}

func TestNotes(t *testing.T) {
	var assets []Asset
	for _, tg := range Targets {
		assets = append(assets, Asset{Name: tg.Archive(), Data: []byte(tg.String())})
	}
	in := NotesInput{
		Release: "v1.2.3", Commit: commitSHA, Repository: "drp2/drp2-fixtures",
		Image: "docker://ghcr.io/drp2/drp2-fixtures@" + digest, Module: "github.com/drp2/drp2-fixtures",
		Checksums: Checksums(assets),
	}
	notes, err := Notes(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"drp2-fixtures v1.2.3, built from " + commitSHA,
		"uses: drp2/drp2-fixtures@v1.2.3",
		"corpus: spec/drp2/fixtures",
		"ghcr.io/drp2/drp2-fixtures@" + digest,
		"uses: drp2/drp2-fixtures/scripts/setup@v1.2.3",
		"go install github.com/drp2/drp2-fixtures/cmd/drp2-fixtures@v1.2.3",
		string(in.Checksums),
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	short := in
	short.Checksums = Checksums(assets[:5])
	if _, err := Notes(short); err == nil || !strings.Contains(err.Error(), "windows_arm64") {
		t.Errorf("notes over a missing archive: %v", err)
	}
	tag := in
	tag.Image = "docker://ghcr.io/drp2/drp2-fixtures:v1.2.3"
	if _, err := Notes(tag); err == nil {
		t.Error("notes accepted an image not pinned by digest")
	}
}
