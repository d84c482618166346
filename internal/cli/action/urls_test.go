package action_test

import (
	"net/http"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// TestOutputURLsAreTheServersOwn: check-url and comment-url carry only
// https URLs of the server's own web host, within the repository; any
// other URL the API answers with (another host, another scheme, a
// javascript: link) leaves the output empty and stays out of the reports.
func TestOutputURLsAreTheServersOwn(t *testing.T) {
	for _, bad := range []string{
		"https://evil.example/acme/widgets/runs/5",
		"http://github.example/acme/widgets/runs/5",
		"javascript:alert(1)",
		"https://github.example@evil.example/acme/widgets/runs/5",
		"https://github.example/other/repo/runs/5",
		"//evil.example/acme/widgets/runs/5",
	} {
		gh := githubtest.New(t, githubtest.Options{Token: token})
		gh.AddFault(githubtest.Fault{Method: http.MethodPost, Path: "/repos/acme/widgets/check-runs", Status: http.StatusCreated,
			Body: `{"id": 5, "html_url": "` + bad + `"}`})
		gh.AddFault(githubtest.Fault{Method: http.MethodPost, Path: "/repos/acme/widgets/issues/7/comments", Status: http.StatusCreated,
			Body: `{"id": 9, "html_url": "` + bad + `", "body": "x", "user": {"login": "github-actions[bot]"}}`})
		w := newWorkspace(t, gh.URL, 7, repoName)
		writeCorpus(t, w.Dir+"/corpus", 1, 1)
		r := w.Run(t, inProcess)
		if got := r.Outputs["check-url"]; got != "" {
			t.Errorf("%s: check-url = %q", bad, got)
		}
		if got := r.Outputs["comment-url"]; got != "" {
			t.Errorf("%s: comment-url = %q", bad, got)
		}
	}
	// The server's own URLs pass, on Enterprise Server too.
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, w.Dir+"/corpus", 1, 1)
	r := w.Run(t, inProcess)
	if r.Outputs["check-url"] == "" || r.Outputs["comment-url"] == "" {
		t.Errorf("outputs %v", r.Outputs)
	}
}
