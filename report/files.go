package report

// Report files: JUnit XML, the JSON document and the Markdown job summary,
// for run and action alike. Each report is rendered in memory first, so a
// rendering error never leaves half a file; but the JSON report, which can
// be larger than the run it comes from, is streamed to a new file that
// replaces the old one only once it is whole (FileOptions.Stream).

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/junit"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// Paths are the report files to write; an empty path is skipped, a
// relative one is taken relative to the working directory.
type Paths struct {
	JUnit string
	// JUnitStrict receives JUnit XML without the testcases' file and line,
	// valid against the JUnit schemas.
	JUnitStrict string
	JSON        string
	// Summary is appended to, as $GITHUB_STEP_SUMMARY expects. It is the
	// runner's own file in the action, so it is not held to the workspace.
	Summary string
	// Markdown receives the same Markdown as the job summary, replaced
	// rather than appended, for a user who posts the report elsewhere.
	Markdown string
}

// FileOptions carry what the report files need beyond the run.
type FileOptions struct {
	// Getenv reads the GitHub run evidence recorded in the JUnit properties.
	Getenv   func(string) string
	Markdown markdown.Options
	// Redact replaces the process's secrets in a rendered report, whatever
	// its text came from; nil replaces nothing.
	Redact func([]byte) []byte
	// Write replaces the file at path, or appends to it (the job summary);
	// the front end's, which holds it to its workspace (gate.SaveReport).
	Write func(path string, data []byte, appendTo bool) error
	// Stream replaces the file at path with what write gives, as it gives
	// it, and only once it gave all of it (workspace.Dir.WriteFileFrom):
	// the JSON report is written so, never whole in memory. Nil renders
	// it whole and hands it to Write.
	Stream func(path string, write func(io.Writer) error) error
	// JUnitStrict writes the JUnit report (Paths.JUnit) as junit-strict:
	// the action's junit-strict input.
	JUnitStrict bool
	// ImagesFolder is where the run wrote its Level 3 images
	// (--images-out), which the Markdown reports name; "" keeps
	// Markdown's.
	ImagesFolder string
}

// ReportError is a report that could not be rendered or written. Its
// Err says which exit code that means (internal/exit): a record lost, or
// the tool's own failure when a renderer failed.
type ReportError struct {
	Report string // "JUnit report", "JSON report", "job summary"
	// Rendering is true when the renderer failed (a bug), false when the
	// file could not be written (an unusable path).
	Rendering bool
	Err       error
}

func (e *ReportError) Error() string {
	if e.Rendering {
		return fmt.Sprintf("render %s: %v", e.Report, e.Err)
	}
	return fmt.Sprintf("write %s: %v", e.Report, e.Err)
}

func (e *ReportError) Unwrap() error { return e.Err }

// ReportFile is one report file the front ends write, in the format of
// that name.
type ReportFile struct {
	// Report names it in errors ("JUnit report").
	Report string
	// Flag is run's and merge's flag for its path, Input the action's
	// input (and step output); "" for none.
	Flag, Input string
	Format      string
	// Append adds the report to the end of the file, as
	// $GITHUB_STEP_SUMMARY expects; otherwise the file is replaced.
	Append bool
	// Help is the flag's help.
	Help string
	path func(*Paths) *string
}

// ReportFiles are the report files, in the order they are written.
var ReportFiles = []ReportFile{
	{Report: "JUnit report", Flag: "junit", Input: "junit-path", Format: "junit",
		Help: "also write JUnit XML to `FILE` (folders are created)", path: func(p *Paths) *string { return &p.JUnit }},
	{Report: "strict JUnit report", Flag: "junit-strict", Format: "junit-strict",
		Help: "also write JUnit XML without file and line attributes, valid against the JUnit schemas, to `FILE`", path: func(p *Paths) *string { return &p.JUnitStrict }},
	{Report: "JSON report", Flag: "json-out", Input: "json-path", Format: "json",
		Help: "also write the JSON report to `FILE` (folders are created)", path: func(p *Paths) *string { return &p.JSON }},
	{Report: "job summary", Flag: "summary", Format: "markdown", Append: true,
		Help: "also append the Markdown job summary to `FILE` (as $GITHUB_STEP_SUMMARY expects)", path: func(p *Paths) *string { return &p.Summary }},
	{Report: "Markdown report", Flag: "markdown", Input: "markdown-path", Format: "markdown",
		Help: "also write the Markdown job summary to `FILE`, replacing it (folders are created)", path: func(p *Paths) *string { return &p.Markdown }},
}

// Path is where p says the report goes.
func (rf *ReportFile) Path(p *Paths) *string { return rf.path(p) }

// WriteReports writes every report that has a path. It tries them all, so
// that one unusable path does not cost the others, and returns every error
// (errors.Join of *ReportError). Each format is rendered once, whatever
// number of files take it.
func WriteReports(run *model.Run, p Paths, o FileOptions) error {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	ro := RenderOptions{Markdown: o.Markdown, JUnit: junit.Options{Properties: junit.GitHubProperties(getenv)}}
	// A job summary too large for GitHub names the JSON report as the user
	// gave it.
	ro.Markdown.WholeReport = p.JSON
	if o.ImagesFolder != "" {
		ro.Markdown.ImagesFolder = o.ImagesFolder
	}
	rendered := map[string][]byte{}
	failed := map[string]error{}
	render := func(format string) ([]byte, error) {
		if b, ok := rendered[format]; ok {
			return b, failed[format]
		}
		var b bytes.Buffer
		err := Lookup(format).WriteRun(&b, run, ro)
		data := b.Bytes()
		if o.Redact != nil {
			data = o.Redact(data)
		}
		rendered[format], failed[format] = data, err
		return rendered[format], err
	}
	var errs []error
	for i := range ReportFiles {
		rf := &ReportFiles[i]
		path := *rf.Path(&p)
		if path == "" {
			continue
		}
		format := rf.Format
		if format == "junit" && o.JUnitStrict {
			format = "junit-strict"
		}
		if format == "json" && o.Stream != nil {
			if err := streamReport(rf, path, run, ro, o); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		data, err := render(format)
		if err != nil {
			errs = append(errs, &ReportError{Report: rf.Report, Rendering: true, Err: exit.New(exit.Tool, err)})
			continue
		}
		if err := o.Write(path, data, rf.Append); err != nil {
			errs = append(errs, &ReportError{Report: rf.Report, Err: exit.New(exit.Record, err)})
		}
	}
	return errors.Join(errs...)
}

// streamReport streams a report to its file (FileOptions.Stream),
// redacted a run of whole lines at a time. An error of the file (a full
// disk) is the record's; any other is the renderer's, and leaves the file
// as it was too.
func streamReport(rf *ReportFile, path string, run *model.Run, ro RenderOptions, o FileOptions) *ReportError {
	var renderErr error
	err := o.Stream(path, func(w io.Writer) error {
		file := &firstError{w: w}
		var out io.Writer = file
		var lines *escape.Lines
		if o.Redact != nil {
			// A secret never spans lines of a JSON report, where every
			// string is on one line, so the report comes out as Redact
			// gives it whole.
			lines = escape.NewLines(file, "\n", redactRun, o.Redact)
			out = lines
		}
		err := Lookup(rf.Format).WriteRun(out, run, ro)
		if err == nil && lines != nil {
			err = lines.Flush()
		}
		if err != nil && file.err == nil {
			renderErr = err
		}
		return err
	})
	switch {
	case renderErr != nil:
		return &ReportError{Report: rf.Report, Rendering: true, Err: exit.New(exit.Tool, renderErr)}
	case err != nil:
		return &ReportError{Report: rf.Report, Err: exit.New(exit.Record, err)}
	}
	return nil
}

// firstError is a writer that remembers the first error of w.
type firstError struct {
	w   io.Writer
	err error
}

func (f *firstError) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

// redactRun is how many bytes of whole lines a streamed report is
// redacted in at a time.
const redactRun = 64 << 10

// ReportErrors lists the reports that WriteReports could not write.
func ReportErrors(err error) []*ReportError {
	var out []*ReportError
	var walk func(error)
	walk = func(err error) {
		var re *ReportError
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				walk(e)
			}
		} else if errors.As(err, &re) {
			out = append(out, re)
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}
