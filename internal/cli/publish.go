package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/github"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// plan is what publishing will try, decided before any request.
type plan struct {
	api     bool // any API call at all
	comment bool
	// skipped are notes for the job summary on what will not be done.
	skipped []string
	// extras are what the manifest and coverage inputs add.
	extras extras
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
	if p.comment && tgt.PR == 0 && !tgt.LookupPR {
		p.comment = false
		p.skipped = append(p.skipped, "Pull request comment skipped: this run belongs to no pull request.")
	}
	return p
}

// published is what publishing did.
type published struct {
	checkURL, commentURL string
	// notes say what failed, for the job summary.
	notes []string
}

// publish sends the check run and the comment. Every failure becomes one
// warning line in the log and one note in the job summary; none changes
// the exit code.
func (a *runAction) publish(ctx context.Context, run *model.Run, in Inputs, tgt target, p plan,
	md markdown.Options, conclusion string, pacing github.Pacing, now func() time.Time) published {
	var res published
	var anns []annotation.Annotation
	if in.Annotations != AnnotateOff {
		anns = append(allAnnotations(run, in.FindingAnnotations), p.extras.annotations...)
	}
	if !p.api {
		if in.Annotations != AnnotateOff {
			a.writeCommands(anns)
		}
		return res
	}
	if in.Annotations == AnnotateCommands {
		a.writeCommands(anns)
	}
	// Without a client nothing is published; the annotations still reach
	// the log.
	noClient := func(err error) published {
		a.warnf("GitHub not updated: %v", err)
		res.notes = append(res.notes, note("Check run and pull request comment skipped", err))
		if in.Annotations == AnnotateCheckRun {
			a.writeCommands(anns)
		}
		return res
	}
	repo, err := github.ParseRepo(a.getenv("GITHUB_REPOSITORY"))
	if err != nil {
		return noClient(err)
	}
	if pacing.Now == nil {
		pacing.Now = now
	}
	client, err := github.New(github.Options{APIURL: a.getenv("GITHUB_API_URL"), Token: in.Token, Pacing: pacing, Redact: a.env.redact})
	if err != nil {
		return noClient(err)
	}
	return a.publishWith(ctx, client, run, in, tgt, p, md, conclusion, anns, repo, now)
}

func (a *runAction) publishWith(ctx context.Context, gh github.Publisher, run *model.Run, in Inputs, tgt target, p plan,
	md markdown.Options, conclusion string, anns []annotation.Annotation, repo github.Repo, now func() time.Time) published {
	var res published
	title, summary, text := markdown.CheckOutput(run, md)
	if len(run.Implementations) > 0 {
		title, summary = markdown.ImplementationsCheckOutput(run, md)
	}
	chk := github.Check{
		// check-run-id is the job's own check run (job.check_run_id): Actions
		// completes it from the step's exit code; only its output is ours.
		Repo: repo, ID: in.CheckRunID, JobRun: in.CheckRunID != 0, Name: in.ReportName, HeadSHA: tgt.HeadSHA, Conclusion: conclusion,
		CompletedAt: now(), Title: title, Summary: summary, Text: text,
	}
	if in.Annotations == AnnotateCheckRun {
		chk.Annotations = anns
		if len(anns) > maxCheckRunAnnotations {
			chk.Annotations = anns[:maxCheckRunAnnotations]
			res.notes = append(res.notes, fmt.Sprintf("Only the first %d of %d annotations were attached to the check run; the JUnit and JSON reports list every mismatch (the job summary may fold some to fit its size limit).",
				maxCheckRunAnnotations, len(anns)))
		}
	}
	unavailable, readOnly := false, false
	cr, err := gh.PublishCheck(ctx, chk)
	switch {
	case err == nil:
		res.checkURL = ownURL(md.ServerURL, md.Repository, cr.URL)
		if res.checkURL != "" {
			md.CheckRunURL = res.checkURL
		}
	default:
		unavailable = isUnavailable(err)
		// The comment must not send readers to a check run that
		// received nothing.
		md.CheckRunURL = ""
		what := "Check run not published"
		if github.ActionsOwned(err) {
			what += " (GitHub Actions owns this check run and alone sets its conclusion, from the step's exit code)"
		} else if github.Forbidden(err) && a.readOnlyToken() {
			what, readOnly = readOnlyNote("Check run not published"), true
		} else if github.Forbidden(err) {
			what += " (the token may not write checks: grant `checks: write`, or run from a workflow whose token can)"
		}
		a.warnf("%s: %s", what, apiText(err))
		res.notes = append(res.notes, note(what, err))
		if in.Annotations == AnnotateCheckRun {
			// The annotations still reach the pull request, in the log.
			a.writeCommands(anns)
		}
	}
	if !p.comment {
		return res
	}
	if unavailable {
		res.notes = append(res.notes, "Pull request comment skipped: the GitHub API did not answer within the time allowed.")
		return res
	}
	if readOnly {
		// The same token would be refused again.
		res.notes = append(res.notes, "Pull request comment skipped: the token is read-only.")
		return res
	}
	number := tgt.PR
	if number == 0 && tgt.LookupPR {
		n, err := gh.PullForSHA(ctx, repo, tgt.HeadSHA)
		if err != nil {
			a.warnf("Pull request comment not published: %v", err)
			res.notes = append(res.notes, note("Pull request comment not published", err))
			return res
		}
		if n == 0 {
			res.notes = append(res.notes, fmt.Sprintf("Pull request comment skipped: no open pull request has the head commit %s.", tgt.HeadSHA))
			return res
		}
		number = n
	}
	cm, err := gh.PublishComment(ctx, github.Comment{
		Repo: repo, Number: number, Marker: markdown.Marker(md.CorpusKey), Body: p.extras.commentBody(commentBody(run, md)),
		Mode: in.Comment, Failing: run.Summary.Failed > 0 || len(p.extras.why) > 0 || implementationsFailed(run),
		ResultKey: resultKey(md, func(o markdown.Options) string {
			return p.extras.commentBody(commentBody(withoutBaseIdentity(run), o))
		}),
	})
	if err != nil && cm.URL != "" {
		// The comment exists; only the check for a racing duplicate failed.
		a.warnf("Pull request comment published, but settling a race with a concurrent run failed: %v", err)
		res.notes = append(res.notes, note("Pull request comment published, but settling a race with a concurrent run failed", err))
		res.commentURL = ownURL(md.ServerURL, md.Repository, cm.URL)
		return res
	}
	if err != nil {
		what := "Pull request comment not published"
		if github.Forbidden(err) && a.readOnlyToken() {
			what = readOnlyNote(what)
		} else if github.Forbidden(err) {
			what += " (the token may not write comments: grant `pull-requests: write`)"
		}
		a.warnf("%s: %s", what, apiText(err))
		res.notes = append(res.notes, note(what, err))
		return res
	}
	res.commentURL = ownURL(md.ServerURL, md.Repository, cm.URL)
	return res
}

// isUnavailable reports whether err means the API is out of reach for the
// rest of the run (retries exhausted, budget spent), so that the next call
// is not even tried.
func isUnavailable(err error) bool {
	var ge *github.GiveUpError
	return errors.As(err, &ge)
}

// note is a job-summary line for a failure; the error text comes from the
// server and is escaped for Markdown.
func note(what string, err error) string {
	return what + ": " + escape.Markdown(escape.OneLine(apiText(err)))
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
	if !strings.HasPrefix(strings.ToLower(got.Path), strings.ToLower(base)) {
		return ""
	}
	return u
}
