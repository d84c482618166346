package gate

import (
	"cmp"
	"encoding/json"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// origin is what a run in GitHub Actions is made on, for the report
// when the command line leaves it out.
type origin struct {
	commit, repository, runURL string
}

// actionsOrigin is the commit, the repository and the workflow run a run
// in GitHub Actions is made on, for the report when the command line names
// none: the repository is GITHUB_REPOSITORY; the commit is a pull
// request's head (the event payload's pull_request.head.sha, or
// workflow_run.head_sha), as the action records it, since GITHUB_SHA is
// then a test merge commit no one pushed; a merge queue entry's
// merge_group.head_sha, where the check runs a required check waits for
// go; else GITHUB_SHA. The run is linked as the action links it in its
// comment. Outside Actions, or for a value of another shape, the part is
// empty: a report names no commit rather than a wrong one.
func actionsOrigin(getenv func(string) string) origin {
	if getenv == nil || getenv("GITHUB_ACTIONS") != "true" {
		return origin{}
	}
	var o origin
	o.commit = getenv("GITHUB_SHA")
	if head := payloadHead(getenv("GITHUB_EVENT_PATH")); head != "" {
		o.commit = head
	}
	if !model.IsCommit(o.commit) {
		o.commit = ""
	}
	if o.repository = getenv("GITHUB_REPOSITORY"); !model.IsRepository(o.repository) {
		o.repository = ""
	}
	serverURL := cmp.Or(getenv("GITHUB_SERVER_URL"), "https://github.com")
	if o.runURL = model.WorkflowRunURL(serverURL, o.repository, getenv("GITHUB_RUN_ID"), getenv("GITHUB_RUN_ATTEMPT")); !model.IsRunURL(o.runURL, o.repository) {
		o.runURL = ""
	}
	return o
}

// payloadHead is the head commit the event payload at path names for a
// pull request, a workflow run or a merge queue entry, or empty.
func payloadHead(path string) string {
	if path == "" {
		return ""
	}
	data, err := workspace.ReadOwn(path, workspace.MaxInputFile)
	if err != nil {
		return ""
	}
	var ev struct {
		PullRequest *struct {
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
		} `json:"pull_request"`
		WorkflowRun *struct {
			HeadSHA string `json:"head_sha"`
		} `json:"workflow_run"`
		MergeGroup *struct {
			HeadSHA string `json:"head_sha"`
		} `json:"merge_group"`
	}
	if json.Unmarshal(data, &ev) != nil {
		return ""
	}
	switch {
	case ev.PullRequest != nil:
		return ev.PullRequest.Head.SHA
	case ev.WorkflowRun != nil:
		return ev.WorkflowRun.HeadSHA
	case ev.MergeGroup != nil:
		return ev.MergeGroup.HeadSHA
	}
	return ""
}
