package cli

// Report files: JUnit XML, the JSON document and the Markdown job summary,
// for run and action alike. Each report is rendered in memory first, so a
// rendering error never leaves half a file.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/junit"
	"github.com/drp2/drp2-fixtures/report/limit"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// Paths are the files to write; an empty path is skipped, a relative one
// is taken relative to Options.Dir.
type Paths struct {
	JUnit string
	JSON  string
	// Summary is appended to, as $GITHUB_STEP_SUMMARY expects.
	Summary string
}

// Options carry what the reports need beyond the run.
type Options struct {
	// Dir is the folder relative paths are resolved against (the working
	// directory of the run); empty means the process's.
	Dir string
	// Getenv reads the environment for the GitHub run evidence recorded in
	// the JUnit properties; nil reads none.
	Getenv   func(string) string
	Markdown markdown.Options
}

// Error is a report that could not be rendered or written.
type Error struct {
	Report string // "JUnit report", "JSON report", "job summary"
	// Rendering is true when the renderer failed (a bug), false when the
	// file could not be written (an unusable path).
	Rendering bool
	Err       error
}

func (e *Error) Error() string {
	if e.Rendering {
		return fmt.Sprintf("render %s: %v", e.Report, e.Err)
	}
	return fmt.Sprintf("write %s: %v", e.Report, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Write writes every report that has a path, stopping at the first error.
func Write(run *model.Run, p Paths, o Options) error {
	// The oversized-summary note names the JSON report as the user gave it.
	where := "the step log"
	if p.JSON != "" {
		where = p.JSON
	}
	p = Paths{JUnit: under(o.Dir, p.JUnit), JSON: under(o.Dir, p.JSON), Summary: under(o.Dir, p.Summary)}
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if err := replace("JUnit report", p.JUnit, func(w io.Writer) error {
		return junit.Write(w, run, junit.Options{Properties: junit.GitHubProperties(getenv)})
	}); err != nil {
		return err
	}
	if err := replace("JSON report", p.JSON, func(w io.Writer) error { return jsonout.Write(w, run) }); err != nil {
		return err
	}
	if p.Summary == "" {
		return nil
	}
	var b bytes.Buffer
	if err := markdown.WriteSummary(&b, run, o.Markdown); err != nil {
		return &Error{Report: "job summary", Rendering: true, Err: err}
	}
	if b.Len() > limit.StepSummaryBytes {
		// GitHub would drop it whole; say where the report is instead.
		b.Reset()
		fmt.Fprintf(&b, "## DRP2 fixtures\n\nThe report is larger than the 1 MiB job summary limit: see %s.\n", where)
	}
	if err := Append(p.Summary, b.Bytes()); err != nil {
		return &Error{Report: "job summary", Err: err}
	}
	return nil
}

func under(dir, p string) string {
	if p == "" || dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func replace(report, path string, render func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	if err := render(&b); err != nil {
		return &Error{Report: report, Rendering: true, Err: err}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return &Error{Report: report, Err: err}
	}
	return nil
}

// Append appends data to path, creating the file when needed.
func Append(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
