package github

import (
	"context"
	"errors"
	"fmt"

	gh "github.com/google/go-github/v60/github"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// CheckResult tells what PublishCheck did.
type CheckResult struct {
	ID  int64
	URL string
	// Requests is the number of create/update requests that landed.
	Requests int
	// Annotated is the number of annotations the check run received.
	Annotated int
}

// PartialCheckError is a check run that was published without all its
// annotations: its title, summary, conclusion and first Attached
// annotations are on it, and a later batch was refused or never landed.
type PartialCheckError struct {
	Attached, Total int
	Err             error
}

func (e *PartialCheckError) Error() string { return e.Err.Error() }
func (e *PartialCheckError) Unwrap() error { return e.Err }

// checkPublish is one PublishCheck under way.
type checkPublish struct {
	c       *Client
	chk     Check
	batches [][]*gh.CheckRunAnnotation
	name    string
	run     *gh.CheckRun
	// count is the number of annotations the check run holds, as GitHub
	// last said: what tells whether a batch whose answer was lost landed.
	count int
	res   CheckResult
}

// PublishCheck creates a check run, or completes an existing one, and
// attaches the annotations in batches the API accepts. A write whose
// answer is lost is never sent blindly again: a create is looked for on
// the commit by its external id, and a batch of annotations by the check
// run's count of them, since GitHub appends a batch sent twice twice.
func (c *Client) PublishCheck(ctx context.Context, chk Check) (CheckResult, error) {
	p := &checkPublish{c: c, chk: chk, batches: batchAnnotations(chk.Annotations), name: chk.Name}
	var err error
	if chk.ID == 0 {
		err = p.create(ctx)
	} else {
		err = p.update(ctx)
	}
	if err != nil {
		return p.res, err
	}
	p.res.ID, p.res.URL = p.run.GetID(), p.run.GetHTMLURL()
	p.res.Annotated = len(p.batches[0])
	// Annotations beyond the first batch are appended by further updates
	// (Checks API: "to add more than 50, make multiple requests").
	for i, batch := range p.batches[1:] {
		if err := p.append(ctx, batch); err != nil {
			return p.res, &PartialCheckError{Attached: p.res.Annotated, Total: len(chk.Annotations),
				Err: fmt.Errorf("add annotation batch %d of %d to check run %d: %w", i+2, len(p.batches), p.res.ID, actionsOwned(p.res.ID, unwrapURL(err)))}
		}
		p.res.Annotated += len(batch)
	}
	return p.res, nil
}

func (p *checkPublish) output(batch []*gh.CheckRunAnnotation) *gh.CheckRunOutput {
	return &gh.CheckRunOutput{
		Title:       gh.String(escape.Clip(p.chk.Title, escape.CheckTitleChars)),
		Summary:     gh.String(truncateBytes(p.chk.Summary, escape.CheckOutputBytes)),
		Text:        optional(truncateBytes(p.chk.Text, escape.CheckOutputBytes)),
		Annotations: batch,
	}
}

// answered takes a check run GitHub answered with, counting its
// annotations (before and the batch sent when the answer says nothing).
func (p *checkPublish) answered(run *gh.CheckRun, before, sent int) {
	p.run, p.res.Requests = run, p.res.Requests+1
	p.count = before + sent
	if out := run.GetOutput(); out != nil && out.AnnotationsCount != nil {
		p.count = out.GetAnnotationsCount()
	}
}

// create makes the check run named p.name on the commit, completed, with
// the first batch; after a lost answer it adopts the check run of the same
// external id when one landed.
func (p *checkPublish) create(ctx context.Context) error {
	c, chk := p.c, p.chk
	send := func() error {
		created, _, err := c.gh.Checks.CreateCheckRun(ctx, chk.Repo.Owner, chk.Repo.Name, gh.CreateCheckRunOptions{
			Name: p.name, HeadSHA: chk.HeadSHA, ExternalID: optional(chk.ExternalID),
			Status: gh.String("completed"), Conclusion: gh.String(chk.Conclusion),
			CompletedAt: &gh.Timestamp{Time: chk.CompletedAt.UTC()}, Output: p.output(p.batches[0]),
		})
		if err == nil {
			p.answered(created, 0, len(p.batches[0]))
		}
		return err
	}
	landed := func() (bool, error) {
		found, err := c.findCheckRun(ctx, chk.Repo, chk.HeadSHA, p.name, chk.ExternalID)
		if found != nil {
			p.answered(found, 0, len(p.batches[0]))
		}
		return found != nil, err
	}
	if err := c.settle(ctx, send, landed); err != nil {
		return fmt.Errorf("create check run %q on %s: %w", p.name, chk.HeadSHA, unwrapURL(err))
	}
	return nil
}

// update gives the check run chk.ID the output and the first batch, and
// completes it unless it is the job's own.
func (p *checkPublish) update(ctx context.Context) error {
	c, chk := p.c, p.chk
	// UpdateCheckRunOptions.Name has no omitempty in go-github v60: an
	// update always sends a name, so it must be the current one.
	current, _, err := c.gh.Checks.GetCheckRun(ctx, chk.Repo.Owner, chk.Repo.Name, chk.ID)
	if err != nil {
		return fmt.Errorf("read check run %d: %w", chk.ID, unwrapURL(err))
	}
	p.name, p.count = current.GetName(), current.GetOutput().GetAnnotationsCount()
	opts := gh.UpdateCheckRunOptions{Name: p.name, Output: p.output(p.batches[0])}
	if !chk.JobRun {
		opts.Status, opts.Conclusion, opts.CompletedAt = gh.String("completed"), gh.String(chk.Conclusion), &gh.Timestamp{Time: chk.CompletedAt.UTC()}
	}
	err = p.patch(ctx, chk.ID, opts, len(p.batches[0]))
	if err != nil && chk.JobRun && otherAppsCheckRun(err) {
		// A GitHub App's token may not touch the job's check run,
		// which GitHub Actions' App created: the results get a check
		// run of their own, under the name the caller gave.
		p.name = chk.Name
		return p.create(ctx)
	}
	if err != nil {
		return fmt.Errorf("update check run %d: %w", chk.ID, actionsOwned(chk.ID, unwrapURL(err)))
	}
	return nil
}

// append adds one more batch of annotations to the check run.
func (p *checkPublish) append(ctx context.Context, batch []*gh.CheckRunAnnotation) error {
	return p.patch(ctx, p.run.GetID(), gh.UpdateCheckRunOptions{Name: p.name, Output: p.output(batch)}, len(batch))
}

// patch sends an update carrying sent annotations. After a lost answer
// it reads the check run: the batch landed when the count of annotations
// grew by it (title and summary come with it, in the same request).
func (p *checkPublish) patch(ctx context.Context, id int64, opts gh.UpdateCheckRunOptions, sent int) error {
	c, repo, before := p.c, p.chk.Repo, p.count
	send := func() error {
		updated, _, err := c.gh.Checks.UpdateCheckRun(ctx, repo.Owner, repo.Name, id, opts)
		if err == nil {
			p.answered(updated, before, sent)
		}
		return err
	}
	landed := func() (bool, error) {
		current, _, err := c.gh.Checks.GetCheckRun(ctx, repo.Owner, repo.Name, id)
		if err != nil || sent == 0 || current.GetOutput().GetAnnotationsCount() < before+sent {
			return false, err
		}
		p.answered(current, before, sent)
		return true, nil
	}
	return c.settle(ctx, send, landed)
}

// findCheckRun returns the check run named name on sha whose external id
// is externalID, or nil; none is looked for without an id.
func (c *Client) findCheckRun(ctx context.Context, repo Repo, sha, name, externalID string) (*gh.CheckRun, error) {
	if externalID == "" {
		return nil, nil
	}
	opts := &gh.ListCheckRunsOptions{CheckName: gh.String(name), Filter: gh.String("all"), ListOptions: gh.ListOptions{PerPage: escape.PerPage}}
	var found *gh.CheckRun
	err := listPages(fmt.Sprintf("list the check runs of %s", sha), func(page int) (bool, *gh.Response, error) {
		opts.Page = page
		list, resp, err := c.gh.Checks.ListCheckRunsForRef(ctx, repo.Owner, repo.Name, sha, opts)
		var runs []*gh.CheckRun
		if list != nil {
			runs = list.CheckRuns
		}
		for _, cr := range runs {
			if cr.GetExternalID() == externalID {
				found = cr
				return true, resp, err
			}
		}
		return false, resp, err
	})
	return found, err
}

// settle sends a write until it lands: send performs it once; after a
// lost answer, landed looks whether it was applied, and the write is sent
// again only when it was not. Waits between tries are the transport's
// backoff, within its budget.
func (c *Client) settle(ctx context.Context, send func() error, landed func() (bool, error)) error {
	began := c.t.p.Now()
	for attempt := 1; ; attempt++ {
		err := send()
		var lost *LostAnswerError
		if !errors.As(err, &lost) {
			return err
		}
		if err := c.t.pause(ctx, began, attempt, lost); err != nil {
			return err
		}
		ok, err := landed()
		if err != nil || ok {
			return err
		}
	}
}
