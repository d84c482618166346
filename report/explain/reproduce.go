package explain

import (
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Module is the command's module path, for the command that reproduces a
// failure anywhere Go is installed.
const Module = "github.com/drp2/drp2-fixtures/cmd/drp2-fixtures"

// Reproduce is the one command line that reruns the given fixtures with
// the build that made the report: "go run MODULE@VERSION run PATH...",
// pinned to its release, its pseudo-version or its commit. A build that
// recorded none of them, or one with local changes, names no version a
// command could fetch: the line is "drp2-fixtures run PATH..." and says to
// use a build of the same source, rather than point at another release
// (@latest). The corpus is the one holding the first path and the schemas
// are chosen as the run chose them, so run from the same checkout it
// reproduces the same verdicts. Paths are quoted for a POSIX shell when
// they need it.
func Reproduce(toolVersion string, paths []string) string {
	return reproduce(toolVersion, " run", paths)
}

// ReproduceImplementation is the command line that reruns the given
// fixtures through the implementation started by command, as Reproduce
// reruns them through the tool: "go run MODULE@VERSION run
// --implementation 'COMMAND' PATH...".
func ReproduceImplementation(toolVersion, command string, paths []string) string {
	return reproduce(toolVersion, " run --implementation "+shellQuote(command), paths)
}

// unpinned ends the command of a build that names no version: a shell
// comment, so that the line still runs as pasted.
const unpinned = "  # made by a development build: use one built from the same source"

func reproduce(toolVersion, args string, paths []string) string {
	var b strings.Builder
	v, pinned := pin(toolVersion)
	if pinned {
		b.WriteString("go run " + Module + "@" + v)
	} else {
		b.WriteString("drp2-fixtures")
	}
	b.WriteString(args)
	for _, p := range paths {
		b.WriteString(" " + shellQuote(p))
	}
	if !pinned {
		b.WriteString(unpinned)
	}
	return b.String()
}

// pin is the version to name after "@" in a version line of
// internal/version ("v1.2.3 (commit 0123456789ab)", "(devel) (commit
// 0123456789ab)"): the release or pseudo-version, else the commit. A build
// with local changes ("modified", a "+dirty" version) has none: no fetch
// gives its code.
func pin(v string) (string, bool) {
	if strings.Contains(v, "modified") || strings.Contains(v, "+dirty") {
		return "", false
	}
	fields := strings.Fields(strings.NewReplacer("(", " ", ")", " ", ",", " ").Replace(v))
	if len(fields) > 0 && semver(fields[0]) {
		return fields[0], true
	}
	for i := 0; i+1 < len(fields); i++ {
		if fields[i] == "commit" && model.IsCommitHash(fields[i+1]) {
			return fields[i+1], true
		}
	}
	return "", false
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
