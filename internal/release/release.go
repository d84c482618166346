// Package release makes the release commit's action.yml: the same file as
// on main, with the image built at every job start (image: Dockerfile)
// replaced by the prebuilt image pinned by digest.
package release

import (
	"bytes"
	"fmt"
	"regexp"
)

// imageRef is a pinned image reference as Docker actions take it: a
// lower-case registry path and a sha256 digest. A tag alone can be moved,
// so it is refused.
var imageRef = regexp.MustCompile(`^docker://[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\.[a-z0-9-]+)*(?::[0-9]+)?(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)+@sha256:[0-9a-f]{64}$`)

// dockerfileImage is the one line on main that names the image.
var dockerfileImage = regexp.MustCompile(`(?m)^(  image:) Dockerfile[ \t]*$`)

// PinImage returns action.yml with "image: Dockerfile" replaced by ref,
// which must be a docker:// reference pinned by digest.
func PinImage(actionYML []byte, ref string) ([]byte, error) {
	if !imageRef.MatchString(ref) {
		return nil, fmt.Errorf("image %q is not docker://REGISTRY/PATH@sha256:<64 hex digits> in lower case", ref)
	}
	return pinLine(actionYML, "action.yml", "docker", dockerfileImage, `lines "  image: Dockerfile" under runs`, "$1 '"+ref+"'")
}

// setupDefault is the one line on main that gives the setup action's
// version input its default.
var setupDefault = regexp.MustCompile(`(?m)^(  version:\n(?:    [a-z]+:.*\n)*?    default:) latest[ \t]*$`)

// PinSetupVersion returns scripts/setup/action.yml with the version input's default
// "latest" replaced by release, so `uses: OWNER/drp2-fixtures/scripts/setup@vX.Y.Z`
// installs the binaries of that very release.
func PinSetupVersion(setupYML []byte, release string) ([]byte, error) {
	if !semver.MatchString(release) {
		return nil, fmt.Errorf("version %q is not vMAJOR.MINOR.PATCH", release)
	}
	return pinLine(setupYML, "scripts/setup/action.yml", "composite", setupDefault, "version inputs defaulting to latest", "$1 "+release)
}

// pinLine replaces the one line of an action file (name) that line matches
// by repl, once the file is known to be the action main holds: exactly one
// such line (lines says what they are), and runs of the kind using. An
// action edited on main so that the line moved or repeats fails the
// release instead of shipping unpinned.
func pinLine(yml []byte, name, using string, line *regexp.Regexp, lines, repl string) ([]byte, error) {
	if n := len(line.FindAllIndex(yml, -1)); n != 1 {
		return nil, fmt.Errorf("%s has %d %s, want exactly 1", name, n, lines)
	}
	if !bytes.Contains(yml, []byte("\n  using: "+using+"\n")) {
		return nil, fmt.Errorf("%s does not say \"using: %s\" under runs", name, using)
	}
	return line.ReplaceAll(yml, []byte(repl)), nil
}
