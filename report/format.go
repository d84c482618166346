// Package report is the table of formats: every --format flag and every
// report file (--junit, --json-out, --summary, --markdown; the action's
// junit-path, json-path, markdown-path and job summary) finds its renderer
// here, and every document is rendered from the model alone.
package report

// The one table of formats: every --format flag (its accepted values, help
// and error text) and every report file (--junit, --json-out, --summary,
// --markdown; the action's junit-path, json-path, markdown-path and job
// summary) find their renderer here.

import (
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/junit"
	"github.com/drp2/drp2-fixtures/report/markdown"
	"github.com/drp2/drp2-fixtures/report/text"
)

// Kind is a kind of document a command writes.
type Kind int

// The kinds of documents.
const (
	// KindRun is a run's report (run, merge, the action).
	KindRun Kind = iota
	// KindComparison is two JSON reports compared (diff).
	KindComparison
	// KindManifest is the corpus compared with its manifest (manifest check).
	KindManifest
	// KindCoverage is the validator's rule coverage (coverage).
	KindCoverage
	// KindExplore is the generated streams implementations disagree on
	// (explore).
	KindExplore
)

// RenderOptions are what renderers need beyond the document.
type RenderOptions struct {
	Text     text.Options
	Markdown markdown.Options
	JUnit    junit.Options
}

// Format is one way to write documents: its name, what it is, and its
// renderer for each kind of document it serves (nil for the others).
type Format struct {
	Name string
	Help string
	// kindHelp says what the format is for a kind where Help would not.
	kindHelp map[Kind]string
	// Whole: the document is the whole of standard output, for a program
	// to read, so the front end's own lines go to standard error.
	Whole bool
	// inert: no line of the format's documents can act as a workflow
	// command unless it means to (the github format's annotations), so
	// ToLog writes them as they are.
	inert      bool
	run        func(io.Writer, *model.Run, RenderOptions) error
	comparison func(io.Writer, *model.Run) error
	manifest   func(io.Writer, *model.ManifestCheck) error
	coverage   func(io.Writer, *model.Coverage) error
	explore    func(io.Writer, *model.Exploration) error
}

// formats are every format, in the order help and errors list them.
var formats = []*Format{
	{
		Name: "text", Help: "a readable report",
		run: writeText,
		comparison: func(w io.Writer, head *model.Run) error {
			return text.WriteComparison(w, head.Comparison)
		},
		manifest: text.Manifest,
		coverage: text.Coverage,
		explore:  writeExploreText,
	},
	{
		Name: "json", Help: "the JSON document", Whole: true, inert: true,
		kindHelp: map[Kind]string{KindComparison: "the comparison member of the JSON report"},
		run:      func(w io.Writer, run *model.Run, _ RenderOptions) error { return jsonout.Write(w, run) },
		comparison: func(w io.Writer, head *model.Run) error {
			return jsonout.WriteComparison(w, head.Comparison)
		},
		manifest: jsonout.WriteManifest,
		coverage: jsonout.WriteCoverage,
		explore:  writeExploreJSON,
	},
	{
		Name: "github", Help: "the readable report, then the annotations as workflow commands", inert: true,
		run: writeGitHub,
	},
	{
		Name: "markdown", Help: "the job summary's Markdown", Whole: true,
		kindHelp: map[Kind]string{KindComparison: "the job summary of HEAD, led by the delta", KindManifest: "the job summary's manifest section"},
		run: func(w io.Writer, run *model.Run, o RenderOptions) error {
			return markdown.WriteReport(w, run, o.Markdown)
		},
		comparison: func(w io.Writer, head *model.Run) error {
			// The job summary of HEAD, which the comparison leads.
			return markdown.WriteSummary(w, head, markdown.Options{})
		},
		manifest: markdown.Manifest,
		coverage: markdown.Coverage,
		explore:  writeExploreMarkdown,
	},
	{
		Name: "junit", Help: "JUnit XML", Whole: true,
		run: func(w io.Writer, run *model.Run, o RenderOptions) error { return junit.Write(w, run, o.JUnit) },
	},
	{
		// JUnit XML without the testcases' file and line, which test-report
		// actions read and the JUnit schemas do not allow.
		Name: "junit-strict", Help: "JUnit XML valid against the JUnit schemas (no file or line on testcases)", Whole: true,
		run: func(w io.Writer, run *model.Run, o RenderOptions) error {
			o.JUnit.Strict = true
			return junit.Write(w, run, o.JUnit)
		},
	},
}

// writeText is the text report; it carries the manifest comparison when
// there is one, before the verdict.
func writeText(w io.Writer, run *model.Run, o RenderOptions) error {
	return text.Write(w, run, o.Text)
}

// writeGitHub is the text report followed by workflow-command annotations
// for the mismatches, for a GitHub Actions log.
func writeGitHub(w io.Writer, run *model.Run, o RenderOptions) error {
	if err := writeText(w, run, o); err != nil {
		return err
	}
	return annotation.WriteCommands(w, annotation.ForRun(run, annotation.FindingsAll), annotation.CommandOptions{})
}

// Serves reports whether the format has a renderer for kind.
func (f *Format) Serves(k Kind) bool {
	switch k {
	case KindRun:
		return f.run != nil
	case KindComparison:
		return f.comparison != nil
	case KindManifest:
		return f.manifest != nil
	case KindCoverage:
		return f.coverage != nil
	case KindExplore:
		return f.explore != nil
	}
	return false
}

// WriteRun, WriteComparison, WriteManifest, WriteCoverage and WriteExplore
// write a document of their kind; the format must serve it.
func (f *Format) WriteRun(w io.Writer, run *model.Run, o RenderOptions) error {
	return f.run(w, run, o)
}

func (f *Format) WriteComparison(w io.Writer, head *model.Run) error { return f.comparison(w, head) }

func (f *Format) WriteManifest(w io.Writer, mc *model.ManifestCheck) error { return f.manifest(w, mc) }

func (f *Format) WriteCoverage(w io.Writer, c *model.Coverage) error { return f.coverage(w, c) }

func (f *Format) WriteExplore(w io.Writer, r *model.Exploration) error { return f.explore(w, r) }

// Lookup is the format called name, nil when there is none.
func Lookup(name string) *Format {
	for _, f := range formats {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// FormatsOf are the formats that serve kind, in the table's order.
func FormatsOf(k Kind) []*Format {
	var out []*Format
	for _, f := range formats {
		if f.Serves(k) {
			out = append(out, f)
		}
	}
	return out
}

// FormatNames lists the names of the formats that serve kind, as a
// sentence does: "text, json or markdown".
func FormatNames(k Kind) string {
	var names []string
	for _, f := range FormatsOf(k) {
		names = append(names, f.Name)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// FormatChoices lists the names of the formats that serve kind as a
// synopsis does: "text|json|markdown".
func FormatChoices(k Kind) string {
	var names []string
	for _, f := range FormatsOf(k) {
		names = append(names, f.Name)
	}
	return strings.Join(names, "|")
}

// HelpFor says what the format is for documents of kind.
func (f *Format) HelpFor(k Kind) string {
	if h, ok := f.kindHelp[k]; ok {
		return h
	}
	return f.Help
}

// ToLog writes one of the format's documents to standard output or
// standard error, which may be an Actions log: through escape.LogWriter,
// so that no line of a JUnit or Markdown document, whatever a fixture's
// name or an implementation's output put in it, can act as a workflow
// command there. Report files are written as rendered.
func (f *Format) ToLog(w io.Writer, write func(io.Writer) error) error {
	if f.inert {
		return write(w)
	}
	lw := escape.NewLogWriter(w)
	err := write(lw)
	if ferr := lw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// ReadRun reads a JSON report back into a run: the reader of the document
// the json format writes, for merge, diff and a baseline report.
func ReadRun(data []byte) (*model.Run, error) { return jsonout.ReadReport(data) }

// UseColor decides whether the text report is coloured: NO_COLOR, then
// FORCE_COLOR or CLICOLOR_FORCE, else byDefault (text.UseColor).
func UseColor(getenv func(string) string, byDefault bool) bool {
	return text.UseColor(getenv, byDefault)
}

// PrintOptions are the render options of a report printed by the command
// line: the text report with passing fixtures listed (verbose) and in
// colour or not, JUnit with the GitHub run's evidence when in Actions.
func PrintOptions(getenv func(string) string, verbose, color bool) RenderOptions {
	return RenderOptions{Text: text.Options{Verbose: verbose, Color: color}, JUnit: junit.Options{Properties: junit.GitHubProperties(getenv)}}
}

// LogOptions are the render options of the text report in the action's
// log: every fixture, grouped, coloured unless NO_COLOR says otherwise
// (GitHub renders the log's ANSI colour).
func LogOptions(getenv func(string) string) RenderOptions {
	return RenderOptions{Text: text.Options{Verbose: true, Group: true, Color: text.UseColor(getenv, true)}}
}
