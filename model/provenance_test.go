package model

import "testing"

func TestIsRunURL(t *testing.T) {
	const repo = "drp2/runtime"
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"https://github.com/drp2/runtime/actions/runs/123", true},
		{"https://github.com/drp2/runtime/actions/runs/123/attempts/2", true},
		{"https://ghe.example:8443/drp2/runtime/actions/runs/9", true},
		{"http://github.com/drp2/runtime/actions/runs/123", false},
		{"https://github.com/other/runtime/actions/runs/123", false},
		{"https://github.com/drp2/runtime/actions/runs/", false},
		{"https://github.com/drp2/runtime/actions/runs/12a", false},
		{"https://github.com/drp2/runtime/actions/runs/123/attempts/", false},
		{"https://github.com/drp2/runtime/actions/runs/123/jobs/4", false},
		{"https://github.com/drp2/runtime/actions/runs/123?x=1", false},
		{"https://user@github.com/drp2/runtime/actions/runs/123", false},
		{"https://github.com/drp2/runtime/actions/runs/123\n", false},
		{"javascript:alert(1)//github.com/drp2/runtime/actions/runs/1", false},
		{"", false},
	} {
		if got := IsRunURL(c.url, repo); got != c.want {
			t.Errorf("IsRunURL(%q, %q) = %v, want %v", c.url, repo, got, c.want)
		}
	}
	if IsRunURL("https://github.com/drp2/runtime/actions/runs/1", "") {
		t.Error("a run URL is accepted for a report that names no repository")
	}
}

func TestRunURLRepository(t *testing.T) {
	for url, want := range map[string]string{
		"https://github.com/drp2/runtime/actions/runs/123":            "drp2/runtime",
		"https://github.com/drp2/runtime/actions/runs/123/attempts/3": "drp2/runtime",
		"https://github.com/drp2/runtime/actions/runs/123/attempts/x": "",
		"https://github.com/drp2/actions/runs/123":                    "",
		"https://github.com/a/b/c/actions/runs/123":                   "",
	} {
		if got := RunURLRepository(url); got != want {
			t.Errorf("RunURLRepository(%q) = %q, want %q", url, got, want)
		}
	}
}
