package markdown

// Where a fixture and the report are: paths that wrap in a narrow
// column, linked to the file at the head commit, and the provenance line.

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"unicode"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// location is the fixture's "path:line", linked to the file at the head
// commit when the options allow it. The text is the path in the corpus:
// the corpus root, the same for every fixture, would only widen the
// column (the link and the reproduce line hold the whole path).
func location(r *model.Result, opts Options) string {
	text := wrap(corpusPath(r))
	if r.Span != nil && r.Span.Line > 0 {
		text += fmt.Sprintf(":%d", r.Span.Line)
	}
	if u := fileURL(r, opts); u != "" {
		return "[" + text + "](" + u + ")"
	}
	return text
}

// corpusPath is the result's path in the corpus, falling back to its
// display path.
func corpusPath(r *model.Result) string {
	if r.RelPath != "" {
		return strings.ReplaceAll(r.RelPath, `\`, "/")
	}
	return explain.DisplayPath(r)
}

// wrapRun is the most characters a path shows without a place to break.
const wrapRun = 16

// wrap escapes a path for a table cell with a <wbr> wherever it may break
// (after a slash, an underscore or a dot, and within any longer run of
// characters), so that a long path wraps in a narrow column instead of
// pushing the next one off a pull-request comment, whatever its length.
// Each piece is escaped on its own; no break falls after a '-' or a '#',
// which could leave an issue reference whole across it.
func wrap(p string) string { return breakable(p, "/_.", escape.Markdown) }

// breakable is s escaped piece by piece with esc, a <wbr> after each of
// the characters in after and within any longer run, as wrap says.
func breakable(s, after string, esc func(string) string) string {
	var pieces []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			pieces = append(pieces, esc(string(cur)))
			cur = cur[:0]
		}
	}
	run := 0
	runes := []rune(escape.OneLine(s))
	for i, c := range runes {
		cur = append(cur, c)
		run++
		switch {
		case c == ' ' || c == '@' || c == '-' && i+1 < len(runes) && unicode.IsLetter(runes[i+1]):
			// A space breaks a line already, and so does a hyphen
			// before a letter, and what either escaping puts after a
			// '@' (a zero-width space, a <wbr>).
			run = 0
		case strings.ContainsRune(after, c):
			flush()
			run = 0
		case run >= wrapRun && c != '-' && c != '#' && c != '@':
			flush()
			run = 0
		}
	}
	flush()
	return strings.Join(pieces, "<wbr>")
}

// fileURL links to the result's file and lines at opts.SHA, or returns ""
// when any part is missing or the path leaves the repository.
func fileURL(r *model.Result, opts Options) string {
	if opts.ServerURL == "" || opts.Repository == "" || opts.SHA == "" {
		return ""
	}
	base := serverBase(opts.ServerURL)
	if base == "" {
		return ""
	}
	p := explain.DisplayPath(r)
	clean := path.Clean(strings.TrimPrefix(p, "./"))
	if p == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return ""
	}
	segs := []string{repoPath(opts.Repository), "blob", url.PathEscape(opts.SHA)}
	for _, s := range strings.Split(clean, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	u := base + "/" + strings.Join(segs, "/")
	if sp := r.Span; sp != nil && sp.Line > 0 {
		u += fmt.Sprintf("#L%d", sp.Line)
		if sp.EndLine > sp.Line {
			u += fmt.Sprintf("-L%d", sp.EndLine)
		}
	}
	return destination(u)
}

// provenance is the line under the verdict that says which commit the
// report describes and links the check run and the workflow run; "" when
// the options name none of them.
func provenance(opts Options, self bool) string {
	var parts []string
	if sha := commitSHA(opts.SHA); sha != "" {
		short := "`" + sha[:7] + "`" // hex only: nothing to escape
		if base := serverBase(opts.ServerURL); base != "" && opts.Repository != "" {
			short = "[" + short + "](" + base + "/" + repoPath(opts.Repository) + "/commit/" + sha + ")"
		}
		parts = append(parts, "Commit "+short)
	}
	if u := linkURL(opts.CheckRunURL); u != "" && !self {
		parts = append(parts, "[Check run]("+u+")")
	}
	if u := linkURL(opts.WorkflowRunURL); u != "" {
		parts = append(parts, "[Workflow run]("+u+")")
	}
	return strings.Join(parts, " · ")
}

// commitSHA returns sha when it is a commit hash (7 to 64 hex digits), so
// that it can be shown and linked without escaping, and "" otherwise.
func commitSHA(sha string) string {
	if len(sha) < 7 || len(sha) > 64 {
		return ""
	}
	for _, c := range sha {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return ""
		}
	}
	return sha
}

// serverBase is ServerURL without a trailing slash when it is a plain
// http(s) origin or path, and "" otherwise.
func serverBase(server string) string {
	base, err := url.Parse(strings.TrimRight(server, "/"))
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" ||
		base.RawQuery != "" || base.Fragment != "" || base.User != nil {
		return ""
	}
	return base.String()
}

func repoPath(repo string) string {
	var segs []string
	for _, s := range strings.Split(repo, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	return strings.Join(segs, "/")
}

// linkURL returns u fit for a Markdown link destination when it is an
// absolute http(s) URL without credentials, and "" otherwise.
func linkURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || p.User != nil {
		return ""
	}
	return destination(p.String())
}

// destination escapes what url.URL.String leaves and a Markdown link
// destination cannot hold: an unbalanced parenthesis would end it.
func destination(u string) string { return destinationEscapes.Replace(u) }

// destinationEscapes is built once: a Replacer builds its tables on first
// use, and a report of thousands of fixtures links each of them.
var destinationEscapes = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E")
