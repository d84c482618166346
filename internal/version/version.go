// Package version names the build of drp2-fixtures: the release and the
// commit it was built from. A release build stamps both (the release
// workflow and the Dockerfile pass them with -ldflags -X, since the image
// build has no .git); any other build reads what the Go toolchain
// recorded: the module version (go install module@vX.Y.Z) and, in a
// clone, the VCS revision.
package version

import (
	"runtime/debug"
	"strings"
)

// Package is the import path whose variables the release build stamps:
//
//	go build -ldflags "-X $Package.release=v1.2.3 -X $Package.commit=<sha>"
const Package = "github.com/drp2/drp2-fixtures/internal/version"

// Stamped at release; empty otherwise.
var release, commit string

// String is the version line: "v1.2.3 (commit 0123456789ab)", or for a build
// from a clone "v0.0.0-20261130193818-459f3dd871de (commit 459f3dd871de)",
// "(devel)" where the toolchain recorded nothing (go run, go test).
func String() string {
	info, _ := debug.ReadBuildInfo()
	return format(release, commit, info)
}

func format(release, commit string, info *debug.BuildInfo) string {
	v, modified := release, false
	// A stamped commit names the release's source; what the toolchain
	// recorded of the checkout it was built in (a clone with a change,
	// under Go's default -buildvcs=auto) says nothing about it.
	stamped := commit != ""
	if info != nil {
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if !stamped {
					commit = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true" && !stamped
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if commit == "" {
		return v
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	detail := []string{"commit " + commit}
	if modified && !strings.HasSuffix(v, "+dirty") {
		detail = append(detail, "modified")
	}
	return v + " (" + strings.Join(detail, ", ") + ")"
}
