// Command drp2-release does the release workflow's steps that can be
// checked on any machine:
//
//	drp2-release pin-image -image docker://ghcr.io/OWNER/drp2-fixtures@sha256:DIGEST [-file action.yml]
//	drp2-release pin-setup -version vX.Y.Z [-file scripts/setup/action.yml]
//	drp2-release binaries -version vX.Y.Z -commit SHA [-out dist] [-targets linux/amd64,...]
//	drp2-release notes -version vX.Y.Z -commit SHA -repository OWNER/NAME -image REF [-checksums dist/checksums.txt]
//
// pin-image and pin-setup rewrite the release commit's action metadata;
// binaries cross-compiles the release binaries with the version and commit
// stamped in, packs one archive per platform and writes checksums.txt;
// notes prints the head of the GitHub Release's notes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/internal/release"
)

const usage = `usage:
  drp2-release pin-image -image docker://REGISTRY/PATH@sha256:DIGEST [-file action.yml]
  drp2-release pin-setup -version vX.Y.Z [-file scripts/setup/action.yml]
  drp2-release binaries -version vX.Y.Z -commit SHA [-out dist] [-targets linux/amd64,...]
  drp2-release notes -version vX.Y.Z -commit SHA -repository OWNER/NAME -image REF [-checksums dist/checksums.txt]
`

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "drp2-release:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no subcommand")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	image := fs.String("image", "", "the pushed image, pinned by digest")
	file := fs.String("file", "", "the action metadata file to rewrite in place")
	ver := fs.String("version", "", "the release, vMAJOR.MINOR.PATCH")
	commit := fs.String("commit", "", "the released commit, full SHA")
	out := fs.String("out", "dist", "folder for the archives and checksums.txt")
	targets := fs.String("targets", "", "comma-separated OS/ARCH list; empty means every release target")
	repository := fs.String("repository", "", "OWNER/NAME of the repository")
	checksums := fs.String("checksums", "dist/"+release.ChecksumsFile, "the release's checksums.txt")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "pin-image":
		return rewrite(orDefault(*file, "action.yml"), func(b []byte) ([]byte, error) { return release.PinImage(b, *image) })
	case "pin-setup":
		return rewrite(orDefault(*file, "scripts/setup/action.yml"), func(b []byte) ([]byte, error) { return release.PinSetupVersion(b, *ver) })
	case "binaries":
		return binaries(*ver, *commit, *out, *targets, stdout)
	case "notes":
		sums, err := os.ReadFile(*checksums)
		if err != nil {
			return err
		}
		notes, err := release.Notes(release.NotesInput{
			Release: *ver, Commit: *commit, Repository: *repository, Image: *image,
			Module: module(), Checksums: sums,
		})
		if err != nil {
			return err
		}
		_, err = io.WriteString(stdout, notes)
		return err
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown subcommand %q", args[0])
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func rewrite(file string, edit func([]byte) ([]byte, error)) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	out, err := edit(src)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return os.WriteFile(file, out, 0o644)
}

// module is the main module's path, from go.mod in the working directory.
func module() string {
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return "github.com/drp2/drp2-fixtures"
	}
	return strings.TrimSpace(string(out))
}

// binaries builds, packs and lists the release binaries. The archives'
// times are the commit's (SOURCE_DATE_EPOCH), so a rebuild of the same
// commit with the same toolchain gives the same bytes.
func binaries(ver, commit, out, only string, stdout io.Writer) error {
	if err := release.CheckStamp(ver, commit); err != nil {
		return err
	}
	targets := release.Targets
	if only != "" {
		targets = nil
		for _, name := range strings.Split(only, ",") {
			t, ok := findTarget(name)
			if !ok {
				return fmt.Errorf("no release target %q", name)
			}
			targets = append(targets, t)
		}
	}
	mtime := time.Now()
	if v := os.Getenv("SOURCE_DATE_EPOCH"); v != "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a whole number of seconds", v)
		}
		mtime = time.Unix(secs, 0)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	build, err := os.MkdirTemp("", "drp2-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(build)
	var assets []release.Asset
	for _, t := range targets {
		bin := filepath.Join(build, t.OS+"_"+t.Arch, t.Binary())
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", release.LDFlags(ver, commit), "-o", bin, "./cmd/drp2-fixtures")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch)
		cmd.Stdout, cmd.Stderr = stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build for %s: %w", t, err)
		}
		data, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		var archive bytes.Buffer
		files := []release.File{{Name: t.Binary(), Mode: 0o755, Data: data}, {Name: "README.md", Mode: 0o644, Data: readme}}
		if err := release.WriteArchive(&archive, t, files, mtime); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, t.Archive()), archive.Bytes(), 0o644); err != nil {
			return err
		}
		assets = append(assets, release.Asset{Name: t.Archive(), Data: archive.Bytes()})
		fmt.Fprintf(stdout, "%s: %d bytes\n", t.Archive(), archive.Len())
	}
	return os.WriteFile(filepath.Join(out, release.ChecksumsFile), release.Checksums(assets), 0o644)
}

func findTarget(name string) (release.Target, bool) {
	for _, t := range release.Targets {
		if t.String() == name {
			return t, true
		}
	}
	return release.Target{}, false
}
