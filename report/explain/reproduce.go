package explain

import (
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Module is the command's module path, for the command that reproduces a
// failure anywhere Go is installed.
const Module = "github.com/drp2/drp2-fixtures/cmd/drp2-fixtures"

// Reproduce is the one command line that reruns the given fixtures with
// the same tool: "go run MODULE@VERSION run PATH...". A release version
// ("v1.2.3 ...") or a build's commit pins the tool; anything else falls
// back to @latest. The corpus is the one holding the first path and the
// schemas are chosen as the run chose them, so run from the same checkout
// it reproduces the same verdicts. Paths are quoted for a POSIX shell when
// they need it.
func Reproduce(toolVersion string, paths []string) string {
	var b strings.Builder
	b.WriteString("go run " + Module + "@" + pin(toolVersion) + " run")
	for _, p := range paths {
		b.WriteString(" " + shellQuote(p))
	}
	return b.String()
}

// ReproduceImplementation is the command line that reruns the given
// fixtures through the implementation started by command, as Reproduce
// reruns them through the tool: "go run MODULE@VERSION run
// --implementation 'COMMAND' PATH...".
func ReproduceImplementation(toolVersion, command string, paths []string) string {
	var b strings.Builder
	b.WriteString("go run " + Module + "@" + pin(toolVersion) + " run --implementation " + shellQuote(command))
	for _, p := range paths {
		b.WriteString(" " + shellQuote(p))
	}
	return b.String()
}

// pin is the version to name after "@": the release tag, else the
// revision a development build records ("(devel) 0123456789ab"), else
// latest.
func pin(v string) string {
	fields := strings.Fields(v)
	if len(fields) > 0 && semver(fields[0]) {
		return fields[0]
	}
	if len(fields) > 1 && model.IsCommitHash(fields[len(fields)-1]) {
		return fields[len(fields)-1]
	}
	return "latest"
}

func semver(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '0' || s[1] > '9' {
		return false
	}
	for _, c := range s[1:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '+') {
			return false
		}
	}
	return true
}

// shellQuote leaves a path of plain characters as it is and puts any other
// in single quotes, so that a pasted command names exactly that file.
func shellQuote(s string) string {
	plain := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+=:,@%", c)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
