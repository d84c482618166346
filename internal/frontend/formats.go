package frontend

// The one table of formats: every --format flag (its accepted values, help
// and error text) and every report file (--junit, --json-out, --summary,
// --markdown; the action's junit-path, json-path, markdown-path and job
// summary) find their renderer here.

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/explore"
	"github.com/drp2/drp2-fixtures/internal/gate"
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
	manifest   func(io.Writer, *gate.ManifestCheck) error
	coverage   func(io.Writer, *model.Coverage) error
	explore    func(io.Writer, *explore.Report) error
}

// formats are every format, in the order help and errors list them.
var formats = []*Format{
	{
		Name: "text", Help: "a readable report",
		run: writeText,
		comparison: func(w io.Writer, head *model.Run) error {
			return text.WriteComparison(w, head.Comparison)
		},
		manifest: func(w io.Writer, mc *gate.ManifestCheck) error { return text.Manifest(w, mc.Model()) },
		coverage: text.Coverage,
		explore:  explore.WriteText,
	},
	{
		Name: "json", Help: "the JSON document", Whole: true, inert: true,
		kindHelp: map[Kind]string{KindComparison: "the comparison member of the JSON report"},
		run:      func(w io.Writer, run *model.Run, _ RenderOptions) error { return jsonout.Write(w, run) },
		comparison: func(w io.Writer, head *model.Run) error {
			return jsonout.WriteComparison(w, head.Comparison)
		},
		manifest: func(w io.Writer, mc *gate.ManifestCheck) error { return jsonout.WriteManifest(w, mc.Model()) },
		coverage: jsonout.WriteCoverage,
		explore:  explore.WriteJSON,
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
		manifest: func(w io.Writer, mc *gate.ManifestCheck) error { return markdown.Manifest(w, mc.Model()) },
		coverage: markdown.Coverage,
		explore:  explore.WriteMarkdown,
	},
	{
		Name: "junit", Help: "JUnit XML", Whole: true,
		run: func(w io.Writer, run *model.Run, o RenderOptions) error { return junit.Write(w, run, o.JUnit) },
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
	return annotation.WriteCommands(w, AllAnnotations(run, FindingsAll), annotation.CommandOptions{})
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

func (f *Format) WriteManifest(w io.Writer, mc *gate.ManifestCheck) error { return f.manifest(w, mc) }

func (f *Format) WriteCoverage(w io.Writer, c *model.Coverage) error { return f.coverage(w, c) }

func (f *Format) WriteExplore(w io.Writer, r *explore.Report) error { return f.explore(w, r) }

// Lookup is the format called name, nil when there is none.
func Lookup(name string) *Format {
	for _, f := range formats {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// formatsOf are the formats that serve kind.
func formatsOf(k Kind) []*Format {
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
	for _, f := range formatsOf(k) {
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
	for _, f := range formatsOf(k) {
		names = append(names, f.Name)
	}
	return strings.Join(names, "|")
}

// FormatFlag is the --format flag of a command writing one kind of
// document: it accepts the formats that serve the kind, and says which
// when given another.
type FormatFlag struct {
	kind Kind
	f    *Format
}

// AddFormatFlag defines --format on fs for documents of kind, text unless
// given.
func AddFormatFlag(fs *flag.FlagSet, k Kind) *FormatFlag {
	v := &FormatFlag{kind: k, f: Lookup("text")}
	var help []string
	for _, f := range formatsOf(k) {
		help = append(help, f.Name+" ("+f.helpFor(k)+")")
	}
	fs.Var(v, "format", "standard output `FORMAT`: "+strings.Join(help, ", "))
	return v
}

// helpFor says what the format is for documents of kind.
func (f *Format) helpFor(k Kind) string {
	if h, ok := f.kindHelp[k]; ok {
		return h
	}
	return f.Help
}

// Set accepts a format that serves the flag's kind.
func (v *FormatFlag) Set(s string) error {
	f := Lookup(s)
	if f == nil || !f.Serves(v.kind) {
		return fmt.Errorf("want %s", FormatNames(v.kind))
	}
	v.f = f
	return nil
}

func (v *FormatFlag) String() string {
	if v == nil || v.f == nil {
		return ""
	}
	return v.f.Name
}

// Format is the format given, text by default.
func (v *FormatFlag) Format() *Format { return v.f }

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
