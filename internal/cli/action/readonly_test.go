package action_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// TestSummaryLinksNoCheckRunThatGotNothing: the job summary is written
// before the check run is published, so it links the job's check run only
// when the token may write it. A read-only token (a Dependabot pull
// request, answered 403 "Resource not accessible by integration") and a
// fork's pull request (no request at all) leave that check run empty: the
// summary must not send readers to it.
func TestSummaryLinksNoCheckRunThatGotNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		fork bool
	}{{"Dependabot's read-only token", false}, {"a fork's pull request", true}} {
		t.Run(c.name, func(t *testing.T) {
			gh := githubtest.New(t, githubtest.Options{Token: token, ReadOnly: true})
			job := gh.JobCheckRun("DRP2 fixtures", headSHA)
			head := repoName
			if c.fork {
				head = "someone/widgets"
			}
			w := newWorkspace(t, gh.URL, 7, head)
			if !c.fork {
				w.Env["GITHUB_ACTOR"] = "dependabot[bot]"
			}
			w.Env["INPUT_CHECK-RUN-ID"] = fmt.Sprint(job)
			writeCorpus(t, filepath.Join(w.Dir, "corpus"), 2, 1)
			r := w.Run(t, inProcess)
			if r.Code != 1 {
				t.Fatalf("exit %d, want 1 (the mismatches)\n%s", r.Code, r.Log)
			}
			if link := fmt.Sprintf("/runs/%d", job); strings.Contains(r.Summary, link) {
				t.Errorf("the job summary links the check run %s, which received nothing:\n%s", link, r.Summary)
			}
			if !strings.Contains(r.Summary, "[Workflow run]") {
				t.Errorf("the job summary lost its other links:\n%.600s", r.Summary)
			}
		})
	}
}
