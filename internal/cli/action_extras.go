package cli

// What the action's manifest and coverage inputs add to a run's reports:
// sections of the job summary and of the pull request comment, failure
// annotations on the fixtures that break a frozen manifest, and reasons to
// fail the step.

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/manifest"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/limit"
)

// extras are the additions of the manifest and coverage inputs.
type extras struct {
	// summary is Markdown appended to the job summary.
	summary string
	// comment is Markdown appended to the pull request comment, and
	// commentShort its one-line stand-in when the comment has no room.
	comment, commentShort string
	annotations           []annotation.Annotation
	// why says why the step fails; empty when it does not.
	why []string
}

// commentBody appends the extras to a comment body, or their one-line
// stand-in when the whole would pass GitHub's comment size limit.
func (e extras) commentBody(body string) string {
	if e.comment == "" {
		return body
	}
	if utf8.RuneCountInString(body)+utf8.RuneCountInString(e.comment) <= limit.CommentChars {
		return body + e.comment
	}
	if utf8.RuneCountInString(body)+utf8.RuneCountInString(e.commentShort) <= limit.CommentChars {
		return body + e.commentShort
	}
	return body
}

// extras compares the corpus with the manifest input and counts the rule
// coverage when the inputs ask for them. The text comparison goes to the
// log between stop-commands markers: fixture paths are corpus text and
// must not be read as workflow commands.
func (a *runAction) extras(r resolved, run *model.Run, in Inputs, cov *coverageRun) (extras, error) {
	var e extras
	var firstErr error
	if in.Manifest != "" {
		if err := a.manifestExtras(&e, r, run, in.Manifest); err != nil {
			firstErr = err
		}
	}
	if cov != nil {
		rep, err := cov.report(run)
		if err == nil {
			var md string
			if md, err = coverageMarkdown(rep); err == nil {
				e.summary += md
			}
		}
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("rule coverage: %w", err)
		}
	}
	return e, firstErr
}

func (a *runAction) manifestExtras(e *extras, r resolved, run *model.Run, input string) error {
	p, err := r.manifestPath(input, "input manifest")
	if err != nil {
		return err
	}
	mc, err := compareManifest(r, run, p)
	if err != nil {
		return err
	}
	var text, md bytes.Buffer
	if err := manifest.WriteText(&text, mc.cmp); err != nil {
		return err
	}
	if err := manifest.WriteMarkdown(&md, mc.cmp); err != nil {
		return err
	}
	token := randomToken()
	fmt.Fprintf(a.log, "::stop-commands::%s\n%s::%s::\n", token, text.String(), token)
	e.summary += "\n" + md.String()
	e.comment = "\n" + md.String()
	e.commentShort = "\n**Fixture manifest:** " + escape.Markdown(mc.cmp.Headline()) + "; the job summary lists the changes.\n"
	e.annotations = mc.annotations()
	if why := mc.freezeBroken(); why != "" {
		e.why = append(e.why, why+" ("+strings.TrimSpace(mc.cmp.Headline())+")")
	}
	return nil
}
