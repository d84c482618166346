package action

import "testing"

func TestWrapCommandsLetsOnlyGroupsThrough(t *testing.T) {
	report := "FAIL a\n::group::Passing fixtures\nPASS b\n::endgroup::\nDRP2 conformance: 1 of 2 failed\n"
	got := wrapCommands(report, "T")
	want := "::stop-commands::T\nFAIL a\n::T::\n::group::Passing fixtures\n::stop-commands::T\nPASS b\n::T::\n::endgroup::\n" +
		"::stop-commands::T\nDRP2 conformance: 1 of 2 failed\n::T::\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestOwnURL: a check or comment URL passes only as an https URL of the
// server's own web host, within the repository.
func TestOwnURL(t *testing.T) {
	for _, c := range []struct{ server, url, want string }{
		{"https://github.com", "https://github.com/acme/widgets/runs/5", "https://github.com/acme/widgets/runs/5"},
		{"https://ghe.example/", "https://ghe.example/acme/widgets/pull/7#issuecomment-9", "https://ghe.example/acme/widgets/pull/7#issuecomment-9"},
		{"https://GitHub.com", "https://github.com/Acme/Widgets/runs/5", "https://github.com/Acme/Widgets/runs/5"},
		{"https://github.com", "https://github.com:8443/acme/widgets/runs/5", ""},
		{"https://github.com", "https://github.com/acme/widgets/runs/5\nX", ""},
		{"https://github.com", "https://github.com/acme/widgets-evil/runs/5", ""},
		{"http://ghe.example", "http://ghe.example/acme/widgets/runs/5", ""},
		{"https://github.test", "https://github.test/acme/widgets/../../evil/x/pull/1", ""},
		{"https://github.test", "https://github.test/acme/widgets/%2e%2e/%2E%2E/evil/x/pull/1", ""},
		{"https://github.test", "https://github.test/acme/widgets/.%2e/x/pull/1", ""},
		{"https://github.test", "https://github.test/acme/widgets/./pull/1", ""},
		{"https://github.test", "https://github.test/acme/widgets/pull/1?x=../..", "https://github.test/acme/widgets/pull/1?x=../.."},
	} {
		if got := ownURL(c.server, "acme/widgets", c.url); got != c.want {
			t.Errorf("ownURL(%q, %q) = %q, want %q", c.server, c.url, got, c.want)
		}
	}
}
