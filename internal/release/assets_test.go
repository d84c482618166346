package release

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const commitSHA = "459f3dd871defd23417fdbeca0dc9f38c52ad4e5"

func TestTargetsCoverEveryRunner(t *testing.T) {
	want := map[string]bool{}
	for _, os := range []string{"linux", "darwin", "windows"} {
		for _, arch := range []string{"amd64", "arm64"} {
			want[os+"/"+arch] = true
		}
	}
	names := map[string]bool{}
	for _, tg := range Targets {
		if !want[tg.String()] {
			t.Errorf("unexpected target %s", tg)
		}
		delete(want, tg.String())
		if names[tg.Archive()] {
			t.Errorf("two targets share the archive %s", tg.Archive())
		}
		names[tg.Archive()] = true
	}
	for missing := range want {
		t.Errorf("no release binary for %s", missing)
	}
	if got := (Target{"windows", "arm64"}).Archive(); got != "drp2-fixtures_windows_arm64.zip" {
		t.Errorf("Windows archive %q", got)
	}
	if got := (Target{"darwin", "arm64"}).Archive(); got != "drp2-fixtures_darwin_arm64.tar.gz" {
		t.Errorf("macOS archive %q", got)
	}
}

// Every archive holds the binary (executable) and the README at the top
// level, and packing the same files twice gives the same bytes.
func TestArchiveLayout(t *testing.T) {
	mtime := time.Date(2026, 11, 30, 19, 38, 18, 0, time.UTC)
	for _, tg := range Targets {
		files := []File{
			{Name: tg.Binary(), Mode: 0o755, Data: []byte("binary for " + tg.String())},
			{Name: "README.md", Mode: 0o644, Data: []byte("# drp2-fixtures\n")},
		}
		var a, b bytes.Buffer
		if err := WriteArchive(&a, tg, files, mtime); err != nil {
			t.Fatal(err)
		}
		if err := WriteArchive(&b, tg, files, mtime.Add(500*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two packings differ", tg)
		}
		got, err := ReadArchive(tg, a.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", tg, err)
		}
		if len(got) != 2 {
			t.Fatalf("%s: %d members", tg, len(got))
		}
		for i, f := range got {
			if f.Name != files[i].Name || f.Mode.Perm() != files[i].Mode || !bytes.Equal(f.Data, files[i].Data) {
				t.Errorf("%s member %d: %s %v %q, want %s %v", tg, i, f.Name, f.Mode, f.Data, files[i].Name, files[i].Mode)
			}
		}
		wantBinary := "drp2-fixtures"
		if tg.OS == "windows" {
			wantBinary += ".exe"
		}
		if got[0].Name != wantBinary {
			t.Errorf("%s: binary named %s", tg, got[0].Name)
		}
	}
}

// The system's unpackers read the archives as the setup action does.
func TestArchivesUnpackWithTheSystemTools(t *testing.T) {
	tarBin, errTar := exec.LookPath("tar")
	unzip, errZip := exec.LookPath("unzip")
	if errTar != nil || errZip != nil {
		t.Skip("SKIPPED: needs tar and unzip")
	}
	for _, tg := range []Target{{"linux", "amd64"}, {"windows", "amd64"}} {
		dir := t.TempDir()
		var buf bytes.Buffer
		if err := WriteArchive(&buf, tg, []File{{Name: tg.Binary(), Mode: 0o755, Data: []byte("#!/bin/sh\n")}}, time.Unix(1e9, 0)); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, tg.Archive())
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(tarBin, "-xzf", path, "-C", dir, tg.Binary())
		if tg.OS == "windows" {
			cmd = exec.Command(unzip, "-q", path, tg.Binary(), "-d", dir)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		fi, err := os.Stat(filepath.Join(dir, tg.Binary()))
		if err != nil {
			t.Fatal(err)
		}
		if tg.OS != "windows" && fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: unpacked mode %v", tg, fi.Mode())
		}
	}
}

func TestChecksums(t *testing.T) {
	assets := []Asset{{"drp2-fixtures_linux_arm64.tar.gz", []byte("b")}, {"drp2-fixtures_linux_amd64.tar.gz", []byte("a")}}
	sums := Checksums(assets)
	lines := strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "  drp2-fixtures_linux_amd64.tar.gz") {
		t.Fatalf("not sorted by name:\n%s", sums)
	}
	a := sha256.Sum256([]byte("a"))
	if !strings.HasPrefix(lines[0], hex.EncodeToString(a[:])+"  ") {
		t.Errorf("wrong digest: %s", lines[0])
	}
	parsed, err := ParseChecksums(sums)
	if err != nil || len(parsed) != 2 || parsed["drp2-fixtures_linux_amd64.tar.gz"] != hex.EncodeToString(a[:]) {
		t.Errorf("round trip: %v %v", parsed, err)
	}
	for _, bad := range []string{"abc  x\n", strings.Repeat("0", 64) + " x\n", strings.Repeat("0", 64) + "  ../x\n", lines[0] + "\n" + lines[0] + "\n"} {
		if _, err := ParseChecksums([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	// sha256sum -c, as the README tells users to check a download, agrees.
	sha256sum, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip("SKIPPED: no sha256sum")
	}
	dir := t.TempDir()
	for _, a := range assets {
		os.WriteFile(filepath.Join(dir, a.Name), a.Data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, ChecksumsFile), sums, 0o644)
	check := exec.Command(sha256sum, "-c", ChecksumsFile)
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(dir, assets[0].Name), []byte("tampered"), 0o644)
	if out, err := check.CombinedOutput(); err == nil {
		t.Errorf("sha256sum -c accepted a tampered archive:\n%s", out)
	}
}

func TestCheckStampAndLDFlags(t *testing.T) {
	if err := CheckStamp("v1.2.3", commitSHA); err != nil {
		t.Error(err)
	}
	for _, c := range [][2]string{{"1.2.3", commitSHA}, {"v1.2", commitSHA}, {"v1.2.3-rc1", commitSHA}, {"v1.2.3", "459f3dd"}, {"v1.2.3", strings.ToUpper(commitSHA)}, {"v1.2.3 -X x.y=z", commitSHA}} {
		if err := CheckStamp(c[0], c[1]); err == nil {
			t.Errorf("CheckStamp(%q, %q) accepted", c[0], c[1])
		}
	}
	got := LDFlags("v1.2.3", commitSHA)
	want := "-s -w -X github.com/drp2/drp2-fixtures/internal/version.release=v1.2.3 -X github.com/drp2/drp2-fixtures/internal/version.commit=" + commitSHA
	if got != want {
		t.Errorf("LDFlags = %q", got)
	}
}

// The image is stamped the same way as the binaries: the Dockerfile sets
// the same two variables, and labels the image with its source, version
// and revision.
func TestDockerfileStampsAndLabels(t *testing.T) {
	src, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"-X github.com/drp2/drp2-fixtures/internal/version.release=${VERSION}",
		"-X github.com/drp2/drp2-fixtures/internal/version.commit=${COMMIT}",
		`org.opencontainers.image.source="${SOURCE}"`,
		`org.opencontainers.image.version="${VERSION}"`,
		`org.opencontainers.image.revision="${COMMIT}"`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("Dockerfile lacks %s", want)
		}
	}
}
