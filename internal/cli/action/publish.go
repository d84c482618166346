package action

// The action's API sinks: the check run and the sticky pull request
// comment, behind the interfaces the action declares for what it needs,
// and the annotations, which go to the check run, the log or nowhere.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/drp2/drp2-fixtures/internal/github"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// checkPublisher publishes a check run; commentPublisher the sticky
// comment, finding the pull request of a commit when the event does not
// say. *github.Client is both.
type checkPublisher interface {
	PublishCheck(ctx context.Context, c github.Check) (github.CheckResult, error)
}

type commentPublisher interface {
	PublishComment(ctx context.Context, c github.Comment) (github.CommentResult, error)
	PullForSHA(ctx context.Context, repo github.Repo, sha string) (int, error)
}

type publisher interface {
	checkPublisher
	commentPublisher
}

var _ publisher = (*github.Client)(nil)

// plan is what publishing will try, decided before any request.
type plan struct {
	api     bool // any API call at all
	comment bool
	// skipped are notes for the job summary on what will not be done.
	skipped []string
}

func planPublishing(in Inputs, tgt target, repository string) plan {
	p := plan{api: true, comment: in.Comment != github.CommentOff}
	switch {
	case in.Token == "":
		p.api, p.comment = false, false
		p.skipped = append(p.skipped, "Check run and pull request comment skipped: the github-token input is empty.")
	case repository == "":
		p.api, p.comment = false, false
		p.skipped = append(p.skipped, "Check run and pull request comment skipped: GITHUB_REPOSITORY is not set.")
	case tgt.Fork != "":
		p.api, p.comment = false, false
		p.skipped = append(p.skipped, fmt.Sprintf("Check run and pull request comment skipped: the pull request comes from the fork %s, "+
			"whose GITHUB_TOKEN is read-only. The results are in this job summary and the annotations in the log; a workflow_run workflow can publish them.", tgt.Fork))
	}
	switch {
	case p.comment && tgt.Queue != "":
		p.comment = false
		p.skipped = append(p.skipped, "Pull request comment skipped: this run is a merge queue entry, which belongs to no pull request; the results are on the check run of the queue's commit.")
	case p.comment && tgt.PR == 0 && !tgt.LookupPR:
		p.comment = false
		p.skipped = append(p.skipped, "Pull request comment skipped: this run belongs to no pull request.")
	}
	return p
}

// gitHub is the client the API sinks share, made once: gh is nil when
// there is none, and notes then say why when it could not be made.
type gitHub struct {
	gh    publisher
	repo  github.Repo
	notes []markdown.PublishingNote
	// run is this run as the check run's external id and the comment's
	// hidden line record it: the workflow run, its attempt and a nonce.
	run github.CommentRun
}

// checkRun is what publishing the check run produced.
type checkRun struct {
	// url is the check run's page, for the check-url output and the
	// comment's link; empty when there is none of the repository's.
	url string
	// refused says the check run was tried and received nothing.
	refused bool
	// readOnly says the token was refused as read-only: the comment,
	// with the same token, is not tried. A check run that gave up
	// otherwise never stops the comment.
	readOnly bool
	// notes say what failed or was left out, for the job summary.
	notes []markdown.PublishingNote
}

// linked is md linking the check run: the one published, else the one
// md already named (the job's own), and none when publishing it failed,
// so that no reader is sent to a check run that received nothing.
func (c checkRun) linked(md markdown.Options) markdown.Options {
	switch {
	case c.refused:
		md.CheckRunURL = ""
	case c.url != "":
		md.CheckRunURL = c.url
	}
	return md
}

// stickyComment is what publishing the sticky comment produced: its URL,
// and notes on what was skipped or failed.
type stickyComment struct {
	url   string
	notes []markdown.PublishingNote
}

// maxCheckRunAnnotations bounds the annotations sent through the API: 20
// requests of 50, which stays well inside the 80 writes per minute.
const maxCheckRunAnnotations = 1000

// annotator is where the annotations go: the check run, the log, or
// nowhere (the annotations input). Each is told whether the check run
// will carry them; those it cannot carry go to the log.
type annotator interface {
	// forCheck returns the annotations the check run carries, and a note
	// when some were left out.
	forCheck() ([]annotation.Annotation, string)
	// noCheck is called when no check run carries them.
	noCheck()
	// notAttached is called when the check run carries only the first
	// attached of them.
	notAttached(attached int)
}

func newAnnotator(mode AnnotationMode, a *runAction, anns []annotation.Annotation) annotator {
	switch mode {
	case AnnotateOff:
		return noAnnotations{}
	case AnnotateCommands:
		// Printed at once: the log is theirs whatever the API does.
		a.writeCommands(anns)
		return noAnnotations{}
	}
	return &checkRunAnnotations{a: a, anns: anns}
}

type noAnnotations struct{}

func (noAnnotations) forCheck() ([]annotation.Annotation, string) { return nil, "" }
func (noAnnotations) noCheck()                                    {}
func (noAnnotations) notAttached(int)                             {}

// checkRunAnnotations go on the check run, and to the log when it is not
// published.
type checkRunAnnotations struct {
	a    *runAction
	anns []annotation.Annotation
}

func (c *checkRunAnnotations) forCheck() ([]annotation.Annotation, string) {
	if len(c.anns) <= maxCheckRunAnnotations {
		return c.anns, ""
	}
	return c.anns[:maxCheckRunAnnotations], fmt.Sprintf("Only the first %d of %d annotations were attached to the check run; the JUnit and JSON reports list every mismatch (the job summary may fold some to fit its size limit).",
		maxCheckRunAnnotations, len(c.anns))
}

func (c *checkRunAnnotations) noCheck() { c.a.writeCommands(c.anns) }

func (c *checkRunAnnotations) notAttached(attached int) {
	c.a.writeCommands(c.anns[min(attached, len(c.anns)):])
}

// writeCommands prints annotations as workflow commands.
func (a *runAction) writeCommands(anns []annotation.Annotation) {
	if err := annotation.WriteCommands(a.log, anns, annotation.CommandOptions{}); err != nil {
		a.warnf("write annotations: %v", err)
	}
}

// connect makes the GitHub client of the delivery when the plan calls
// the API; none (with a note) when it cannot be made.
func (a *runAction) connect(d *delivery) gitHub {
	if !d.plan.api {
		return gitHub{}
	}
	repo, err := github.ParseRepo(d.repo)
	var c *github.Client
	if err == nil {
		pacing := d.pacing
		if pacing.Now == nil {
			pacing.Now = d.now
		}
		c, err = github.New(github.Options{APIURL: a.getenv("GITHUB_API_URL"), Token: d.in.Token, Pacing: pacing, Redact: a.env.Redactor})
	}
	if err != nil {
		a.warnf("GitHub not updated: %v", err)
		return gitHub{notes: []markdown.PublishingNote{note("Check run and pull request comment skipped", err)}}
	}
	return gitHub{gh: c, repo: repo, run: github.CommentRun{Head: d.tgt.HeadSHA, Nonce: github.NewNonce(),
		ID: positive(a.getenv("GITHUB_RUN_ID")), Attempt: positive(a.getenv("GITHUB_RUN_ATTEMPT"))}}
}

// positive is a run's id or attempt, 0 when it is not a number.
func positive(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// checkShare is the share of the API budget the check run may spend: the
// rest stays for the sticky comment, whatever the check run meets.
const checkShare = 2.0 / 3

// publishCheck sends the check run: the verdict's conclusion, title and
// summary, and the annotations. Every failure is a warning and a note.
func (a *runAction) publishCheck(ctx context.Context, d *delivery, gh gitHub) checkRun {
	var res checkRun
	if gh.gh == nil {
		d.anns.noCheck()
		return res
	}
	title, summary, text := markdown.CheckOutput(d.out.Run, d.md)
	if len(d.out.Run.Implementations) > 0 {
		title, summary = markdown.ImplementationsCheckOutput(d.out.Run, d.md)
	}
	anns, capNote := d.anns.forCheck()
	if capNote != "" {
		res.notes = append(res.notes, markdown.PublishingNote{What: capNote})
	}
	cr, err := gh.gh.PublishCheck(github.WithReserve(ctx, 1-checkShare), github.Check{
		// check-run-id is the job's own check run (job.check_run_id): Actions
		// completes it from the step's exit code; only its output is ours.
		Repo: gh.repo, ID: d.in.CheckRunID, JobRun: d.in.CheckRunID != 0, Name: d.in.ReportName, HeadSHA: d.tgt.HeadSHA,
		ExternalID: fmt.Sprintf("drp2-fixtures run %d.%d %s", gh.run.ID, gh.run.Attempt, gh.run.Nonce),
		Conclusion: d.conclusion(), CompletedAt: d.now(), Title: title, Summary: summary, Text: text, Annotations: anns,
	})
	var partial *github.PartialCheckError
	switch {
	case err == nil:
		res.url = ownURL(d.md.ServerURL, d.md.Repository, cr.URL)
		return res
	case errors.As(err, &partial) && cr.URL != "":
		// The verdict is on the check run; only annotations are missing.
		res.url = ownURL(d.md.ServerURL, d.md.Repository, cr.URL)
		what := fmt.Sprintf("Check run published without all its annotations: it shows the conclusion, title and summary and the first %d of %d annotations; the other %d are in the log",
			partial.Attached, partial.Total, partial.Total-partial.Attached)
		a.warnf("%s: %s", what, apiText(err))
		res.notes = append(res.notes, note(what, err))
		d.anns.notAttached(partial.Attached)
		return res
	}
	res.refused = true
	what := "Check run not published"
	switch {
	case github.ActionsOwned(err):
		what += " (GitHub Actions owns this check run and alone sets its conclusion, from the step's exit code)"
	case github.Forbidden(err) && a.readOnlyToken():
		what, res.readOnly = readOnlyNote(what), true
	case github.Forbidden(err):
		what += " (the token may not write checks: grant it checks: write, or run from a workflow whose token can)"
	}
	if !res.readOnly {
		what += "; the commit has no check run of this run, and the annotations are in the log"
	}
	a.warnf("%s: %s", what, apiText(err))
	res.notes = append(res.notes, note(what, err))
	// The annotations still reach the pull request, in the log.
	d.anns.noCheck()
	return res
}

// publishComment creates or updates the sticky comment, as the comment
// input says, failing when the verdict does, and linking the check run
// as publishing it left it.
func (a *runAction) publishComment(ctx context.Context, d *delivery, gh gitHub, check checkRun) stickyComment {
	var res stickyComment
	switch {
	case !d.plan.comment || gh.gh == nil:
		return res
	case check.readOnly:
		// The same token would be refused again.
		res.notes = append(res.notes, markdown.PublishingNote{What: "Pull request comment skipped: the token is read-only."})
		return res
	}
	number, skipped := a.pullRequest(ctx, d, gh)
	if number == 0 {
		res.notes = append(res.notes, skipped...)
		return res
	}
	md, body := check.linked(d.md), markdown.CommentBody
	cm, err := gh.gh.PublishComment(ctx, github.Comment{
		Repo: gh.repo, Number: number, Marker: markdown.Marker(md.CorpusKey), Body: body(d.out.Run, md),
		Mode: d.in.Comment, Failing: d.conclusion() == "failure", Run: gh.run,
		ResultKey: resultKey(md, func(o markdown.Options) string { return body(withoutBaseIdentity(d.out.Run), o) }),
	})
	var dup *github.DuplicatesError
	switch {
	case errors.As(err, &dup):
		// The comment is written; only removing older copies failed.
		a.warnf("Pull request comment published, but %v", err)
		res.notes = append(res.notes, note("Pull request comment published, but removing its duplicates failed", err))
	case err != nil:
		what := "Pull request comment not published"
		if github.Forbidden(err) && a.readOnlyToken() {
			what = readOnlyNote(what)
		} else if github.Forbidden(err) {
			what += " (the token may not write comments: grant it pull-requests: write)"
		}
		what += "; it still shows " + commentShows(cm)
		a.warnf("%s: %s", what, apiText(err))
		res.notes = append(res.notes, note(what, err))
		return res
	case cm.Outcome == github.CommentSuperseded:
		a.noticef("Pull request comment left to the run of the head: this run judged %s, superseded by %s, the pull request's head now", d.tgt.HeadSHA, cm.Head)
		res.notes = append(res.notes, markdown.PublishingNote{What: fmt.Sprintf("Pull request comment left as it is: this run judged %s, superseded by %s, the pull request's head now.", d.tgt.HeadSHA, cm.Head)})
		return res
	case cm.Outcome == github.CommentKept:
		a.noticef("Pull request comment left as it is: it shows %s, a later run than this one", commentShows(cm))
		return res
	}
	res.url = ownURL(md.ServerURL, md.Repository, cm.URL)
	return res
}

// commentShows says what the sticky comment shows, as far as the last
// reading of it tells.
func commentShows(cm github.CommentResult) string {
	switch {
	case !cm.Listed:
		return "what an earlier run wrote, if any"
	case cm.ID == 0:
		return "nothing: there is no comment yet"
	case cm.Shown == nil:
		return "the verdict of an earlier run"
	}
	return fmt.Sprintf("the verdict of commit %.7s from run %d (attempt %d)", cm.Shown.Head, cm.Shown.ID, cm.Shown.Attempt)
}

// pullRequest is the pull request the comment goes to: the event's, else
// the open one whose head is the commit (workflow_run of a fork); 0, and
// a note, when there is none.
func (a *runAction) pullRequest(ctx context.Context, d *delivery, gh gitHub) (int, []markdown.PublishingNote) {
	if d.tgt.PR != 0 || !d.tgt.LookupPR {
		return d.tgt.PR, nil
	}
	n, err := gh.gh.PullForSHA(ctx, gh.repo, d.tgt.HeadSHA)
	if err != nil {
		what := "Pull request comment not published, as its pull request could not be found; it still shows " + commentShows(github.CommentResult{})
		a.warnf("%s: %s", what, apiText(err))
		return 0, []markdown.PublishingNote{note(what, err)}
	}
	if n == 0 {
		return 0, []markdown.PublishingNote{{What: fmt.Sprintf("Pull request comment skipped: no open pull request has the head commit %s.", d.tgt.HeadSHA)}}
	}
	return n, nil
}

// note is a job-summary line for a failure: what was not done, and the
// API's answer.
func note(what string, err error) markdown.PublishingNote {
	return markdown.PublishingNote{What: what, Answer: apiText(err)}
}

// apiText is an error's text without the empty list of field errors the
// GitHub client library ends a refusal with ("... Resource not accessible
// by integration []").
func apiText(err error) string {
	return strings.TrimSuffix(strings.TrimRight(err.Error(), " "), " []")
}

// readOnlyToken reports whether a refusal means this run's token is
// read-only: a run Dependabot triggered gets a read-only GITHUB_TOKEN by
// default, as a fork's pull request does.
func (a *runAction) readOnlyToken() bool {
	return a.getenv("GITHUB_ACTOR") == "dependabot[bot]" || a.getenv("GITHUB_TRIGGERING_ACTOR") == "dependabot[bot]"
}

// readOnlyNote says why nothing was published where a read-only token
// refused it, and where the results are instead; asking for a permission
// such a run cannot have would only mislead.
func readOnlyNote(what string) string {
	return what + ": this run's token is read-only (a Dependabot or fork pull request), so publishing was skipped; " +
		"the results are in this job summary, the log's annotations and the JUnit and JSON reports"
}

// resultKey identifies what the comment reports, without the links of
// this run (commit, check run, workflow run): comment: changes rewrites the
// comment only when the result itself changed.
func resultKey(md markdown.Options, render func(markdown.Options) string) string {
	md.SHA, md.CheckRunURL, md.WorkflowRunURL = "", "", ""
	sum := sha256.Sum256([]byte(render(md)))
	return hex.EncodeToString(sum[:])
}

// ownURL returns u when it is an https URL of the server's own web host
// (GITHUB_SERVER_URL) within the repository, else "": the check-url and
// comment-url outputs and the reports' links pass on what the API
// answered, and a later step may open or print it.
func ownURL(server, repository, u string) string {
	home, err := url.Parse(server)
	if err != nil || repository == "" {
		return ""
	}
	got, err := url.Parse(u)
	if err != nil || got.Scheme != "https" || home.Scheme != "https" || got.User != nil || got.Opaque != "" ||
		!strings.EqualFold(got.Host, home.Host) || strings.ContainsFunc(u, unicode.IsControl) {
		return ""
	}
	base := strings.TrimSuffix(home.Path, "/") + "/" + repository + "/"
	if !strings.HasPrefix(strings.ToLower(got.Path), strings.ToLower(base)) || hasDotSegment(got) {
		return ""
	}
	return u
}

// hasDotSegment reports whether a URL's path climbs with "." or ".."
// segments, written plainly or percent-encoded: a browser resolves them,
// so /acme/widgets/../../evil/x would leave the repository the prefix
// test saw.
func hasDotSegment(u *url.URL) bool {
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if dec, err := url.PathUnescape(seg); err != nil || dec == "." || dec == ".." {
			return true
		}
	}
	return false
}
