package action

import (
	"encoding/json"
	"fmt"

	"github.com/drp2/drp2-fixtures/internal/workspace"
)

// target is the commit and pull request the results belong to.
type target struct {
	// HeadSHA is where the check run and the file links go: the pull
	// request head, not the test merge commit in GITHUB_SHA.
	HeadSHA string
	// PR is the pull request number, or 0 when there is none.
	PR int
	// LookupPR asks to find the pull request by HeadSHA (workflow_run of
	// a fork, whose pull_requests list is empty).
	LookupPR bool
	// Fork names the head repository of a pull request from a fork, whose
	// GITHUB_TOKEN is read-only; empty otherwise.
	Fork string
	// Queue is the ref of a merge queue entry (merge_group's head_ref),
	// which belongs to no pull request; empty otherwise.
	Queue string
}

// event is the part of an event payload the action reads.
type event struct {
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			SHA  string `json:"sha"`
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"head"`
	} `json:"pull_request"`
	WorkflowRun *struct {
		HeadSHA      string `json:"head_sha"`
		PullRequests []struct {
			Number int `json:"number"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
	MergeGroup *struct {
		HeadSHA string `json:"head_sha"`
		HeadRef string `json:"head_ref"`
	} `json:"merge_group"`
}

// readTarget reads the event payload at path. Only pull_request gets a
// read-only token for forks: pull_request_target and workflow_run run with
// the base repository's token.
func readTarget(eventName, path, repository, sha string) (target, error) {
	t := target{HeadSHA: sha}
	if path == "" {
		return t, nil
	}
	data, err := workspace.ReadOwn(path, workspace.MaxInputFile)
	if err != nil {
		return t, fmt.Errorf("read event payload: %w", err)
	}
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return t, fmt.Errorf("event payload %s: %w", path, err)
	}
	switch {
	case ev.PullRequest != nil:
		pr := ev.PullRequest
		t.PR = pr.Number
		if pr.Head.SHA != "" {
			t.HeadSHA = pr.Head.SHA
		}
		// A deleted fork has no head repo; its token is read-only too.
		head := ""
		if pr.Head.Repo != nil {
			head = pr.Head.Repo.FullName
		}
		if eventName == "pull_request" && head != repository {
			t.Fork = head
			if t.Fork == "" {
				t.Fork = "a deleted repository"
			}
		}
	case eventName == "workflow_run" && ev.WorkflowRun != nil:
		wr := ev.WorkflowRun
		if wr.HeadSHA != "" {
			t.HeadSHA = wr.HeadSHA
		}
		if len(wr.PullRequests) > 0 {
			t.PR = wr.PullRequests[0].Number
		} else {
			t.LookupPR = true
		}
	case eventName == "merge_group" && ev.MergeGroup != nil:
		// The commit a required check waits for: the queue's own, which
		// GITHUB_SHA names too, read from the payload as on the others.
		mg := ev.MergeGroup
		if mg.HeadSHA != "" {
			t.HeadSHA = mg.HeadSHA
		}
		t.Queue = orDefault(mg.HeadRef, "a merge queue entry")
	}
	return t, nil
}
