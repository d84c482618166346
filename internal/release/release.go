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
	if n := len(dockerfileImage.FindAllIndex(actionYML, -1)); n != 1 {
		return nil, fmt.Errorf("action.yml has %d lines \"  image: Dockerfile\" under runs, want exactly 1", n)
	}
	if !bytes.Contains(actionYML, []byte("\n  using: docker\n")) {
		return nil, fmt.Errorf("action.yml does not say \"using: docker\" under runs")
	}
	return dockerfileImage.ReplaceAll(actionYML, []byte("$1 '"+ref+"'")), nil
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
	if n := len(setupDefault.FindAllIndex(setupYML, -1)); n != 1 {
		return nil, fmt.Errorf("scripts/setup/action.yml has %d version inputs defaulting to latest, want exactly 1", n)
	}
	if !bytes.Contains(setupYML, []byte("\n  using: composite\n")) {
		return nil, fmt.Errorf("scripts/setup/action.yml does not say \"using: composite\" under runs")
	}
	return setupDefault.ReplaceAll(setupYML, []byte("$1 "+release)), nil
}
