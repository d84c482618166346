package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/internal/version"
)

// Target is one platform the release ships a binary for.
type Target struct{ OS, Arch string }

// Targets are the release binaries: every runner the Docker action cannot
// serve (macOS, Windows, self-hosted GPU machines) on both architectures.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func (t Target) String() string { return t.OS + "/" + t.Arch }

// Binary is the executable's name inside the archive.
func (t Target) Binary() string {
	if t.OS == "windows" {
		return "drp2-fixtures.exe"
	}
	return "drp2-fixtures"
}

// Archive is the asset's name. It carries no version, so
// releases/latest/download/<name> and releases/download/<tag>/<name> both
// name it; the binary inside says its version.
func (t Target) Archive() string {
	if t.OS == "windows" {
		return "drp2-fixtures_" + t.OS + "_" + t.Arch + ".zip"
	}
	return "drp2-fixtures_" + t.OS + "_" + t.Arch + ".tar.gz"
}

// ChecksumsFile is the asset listing every archive's sha256, in the format
// of sha256sum (and shasum -a 256), so `sha256sum -c` checks a download.
const ChecksumsFile = "checksums.txt"

var semver = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)

var fullCommit = regexp.MustCompile(`^[0-9a-f]{40}$`)

// CheckStamp refuses what must not be stamped into a release: a version
// that is not vMAJOR.MINOR.PATCH, a commit that is not a full SHA-1.
func CheckStamp(release, commit string) error {
	if !semver.MatchString(release) {
		return fmt.Errorf("version %q is not vMAJOR.MINOR.PATCH", release)
	}
	if !fullCommit.MatchString(commit) {
		return fmt.Errorf("commit %q is not a full 40-digit lower-case SHA-1", commit)
	}
	return nil
}

// LDFlags are the linker flags of a release build: stripped, with the
// release and the commit stamped into internal/version (the Dockerfile
// passes the same two).
func LDFlags(release, commit string) string {
	return fmt.Sprintf("-s -w -X %s.release=%s -X %s.commit=%s", version.Package, release, version.Package, commit)
}

// File is one member of an archive.
type File struct {
	Name string
	Mode fs.FileMode
	Data []byte
}

// WriteArchive writes files as the target's archive: a zip for Windows, a
// gzipped tar elsewhere, every member at the top level with the given
// modification time (the commit's, so a rebuild gives the same bytes).
func WriteArchive(w io.Writer, t Target, files []File, mtime time.Time) error {
	mtime = mtime.UTC().Truncate(time.Second)
	if t.OS == "windows" {
		zw := zip.NewWriter(w)
		for _, f := range files {
			h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: mtime}
			h.SetMode(f.Mode)
			fw, err := zw.CreateHeader(h)
			if err != nil {
				return err
			}
			if _, err := fw.Write(f.Data); err != nil {
				return err
			}
		}
		return zw.Close()
	}
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	gz.ModTime = mtime
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{
			Typeflag: tar.TypeReg, Name: f.Name, Mode: int64(f.Mode.Perm()), Size: int64(len(f.Data)),
			ModTime: mtime, Uname: "root", Gname: "root", Format: tar.FormatPAX,
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// Asset is one file attached to the release.
type Asset struct {
	Name string
	Data []byte
}

// Checksums is the checksums.txt of assets: one "<sha256>  <name>" line
// each, sorted by name.
func Checksums(assets []Asset) []byte {
	lines := make([]string, 0, len(assets))
	for _, a := range assets {
		sum := sha256.Sum256(a.Data)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+a.Name+"\n")
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	return []byte(strings.Join(lines, ""))
}

// ParseChecksums reads a checksums.txt back: name to hex digest. It is
// what a download is checked against.
func ParseChecksums(data []byte) (map[string]string, error) {
	sums := map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 || name == "" || strings.ContainsAny(name, "/\\") {
			return nil, fmt.Errorf("%s line %d: want \"<sha256>  <name>\", got %q", ChecksumsFile, i+1, line)
		}
		if _, err := hex.DecodeString(sum); err != nil {
			return nil, fmt.Errorf("%s line %d: %v", ChecksumsFile, i+1, err)
		}
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("%s line %d: %s listed twice", ChecksumsFile, i+1, name)
		}
		sums[name] = sum
	}
	return sums, nil
}

// ReadArchive lists an archive's members (name, mode, bytes), for the
// tests and for the release's own check of what it is about to attach.
func ReadArchive(t Target, data []byte) ([]File, error) {
	var files []File
	if t.OS == "windows" {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
			files = append(files, File{Name: f.Name, Mode: f.Mode(), Data: b})
		}
		return files, nil
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: h.Name, Mode: fs.FileMode(h.Mode).Perm(), Data: b})
	}
}
