package version

import (
	"runtime/debug"
	"testing"
)

func settings(kv ...string) []debug.BuildSetting {
	var s []debug.BuildSetting
	for i := 0; i < len(kv); i += 2 {
		s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
	}
	return s
}

func TestFormat(t *testing.T) {
	const rev = "459f3dd871defd23417fdbeca0dc9f38c52ad4e5"
	for _, c := range []struct {
		name, release, commit string
		info                  *debug.BuildInfo
		want                  string
	}{
		{"release stamped", "v1.2.3", rev, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v1.2.3 (commit 459f3dd871de)"},
		{"release without commit", "v1.2.3", "", nil, "v1.2.3"},
		{"release stamped, built in a clone with changes", "v1.2.3", rev, &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "0123456789abcdef", "vcs.modified", "true"),
		}, "v1.2.3 (commit 459f3dd871de)"},
		{"go install module@version", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"go build in a clone", "", "", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261130193818-459f3dd871de"},
			Settings: settings("vcs", "git", "vcs.revision", rev, "vcs.modified", "false"),
		}, "v0.0.0-20261130193818-459f3dd871de (commit 459f3dd871de)"},
		{"go build in a clone with changes", "", "", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true"),
		}, "(devel) (commit 459f3dd871de, modified)"},
		{"the toolchain says +dirty itself", "", "", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261130193818-459f3dd871de+dirty"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true"),
		}, "v0.0.0-20261130193818-459f3dd871de+dirty (commit 459f3dd871de)"},
		{"go run", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"no build info", "", "", nil, "(devel)"},
	} {
		if got := format(c.release, c.commit, c.info); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
