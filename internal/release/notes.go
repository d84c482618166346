package release

import (
	"fmt"
	"regexp"
	"strings"
)

// NotesInput is what the release notes say.
type NotesInput struct {
	Release    string // vX.Y.Z
	Commit     string // the released main commit, full SHA
	Repository string // OWNER/NAME
	Image      string // docker://REGISTRY/PATH@sha256:DIGEST, as pinned in action.yml
	Module     string // the Go module path
	Checksums  []byte // checksums.txt
}

var repositoryName = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// Notes renders the head of the GitHub Release's notes: how to use this
// release (the action, the setup action, go install, a download by hand)
// and the checksums. GitHub appends the generated list of changes.
func Notes(in NotesInput) (string, error) {
	if err := CheckStamp(in.Release, in.Commit); err != nil {
		return "", err
	}
	if !repositoryName.MatchString(in.Repository) {
		return "", fmt.Errorf("repository %q is not OWNER/NAME", in.Repository)
	}
	if !imageRef.MatchString(in.Image) {
		return "", fmt.Errorf("image %q is not pinned by digest", in.Image)
	}
	sums, err := ParseChecksums(in.Checksums)
	if err != nil {
		return "", err
	}
	for _, t := range Targets {
		if _, ok := sums[t.Archive()]; !ok {
			return "", fmt.Errorf("%s lists no %s", ChecksumsFile, t.Archive())
		}
	}
	major, _, _ := strings.Cut(in.Release, ".")
	var b strings.Builder
	fmt.Fprintf(&b, "drp2-fixtures %s, built from %s.\n\n", in.Release, in.Commit)
	fmt.Fprintf(&b, "### The action\n\n```yaml\n      - uses: %s@%s   # or @%s, moved to each %s.x release\n        with:\n          corpus: spec/drp2/fixtures\n```\n\n", in.Repository, in.Release, major, major)
	fmt.Fprintf(&b, "It runs the prebuilt image `%s`.\n\n", strings.TrimPrefix(in.Image, "docker://"))
	fmt.Fprintf(&b, "### The CLI, on any runner or machine\n\n```yaml\n      - uses: %s/scripts/setup@%s   # downloads this release's binary and checks its sha256\n```\n\n", in.Repository, in.Release)
	fmt.Fprintf(&b, "```sh\ngo install %s/cmd/drp2-fixtures@%s\n```\n\n", in.Module, in.Release)
	fmt.Fprintf(&b, "or download the archive for your platform below and check it:\n\n```sh\nsha256sum --ignore-missing -c %s   # macOS: shasum -a 256 --ignore-missing -c %s\n```\n\n", ChecksumsFile, ChecksumsFile)
	fmt.Fprintf(&b, "### Checksums (sha256)\n\n```\n%s```\n", in.Checksums)
	return b.String(), nil
}
