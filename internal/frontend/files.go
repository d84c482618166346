package frontend

// Report files: JUnit XML, the JSON document and the Markdown job summary,
// for run and action alike. Each report is rendered in memory first, so a
// rendering error never leaves half a file.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/junit"
	"github.com/drp2/drp2-fixtures/report/limit"
	"github.com/drp2/drp2-fixtures/report/markdown"
)

// Paths are the report files to write; an empty path is skipped, a
// relative one is taken relative to the working directory.
type Paths struct {
	JUnit string
	JSON  string
	// Summary is appended to, as $GITHUB_STEP_SUMMARY expects. It is the
	// runner's own file in the action, so it is not held to the workspace.
	Summary string
	// Markdown receives the same Markdown as the job summary, replaced
	// rather than appended, for a user who posts the report elsewhere.
	Markdown string
}

// FileOptions carry what the report files need beyond the run.
type FileOptions struct {
	// Dir is the working directory: relative paths are resolved against
	// it, and report paths below it are written without following links.
	Dir string
	// Contained refuses a JUnit or JSON path that resolves outside Dir (the
	// action, where the pull request lays out the workspace).
	Contained bool
	// Getenv reads the GitHub run evidence recorded in the JUnit properties.
	Getenv   func(string) string
	Markdown markdown.Options
	// Redact replaces the process's secrets in every report, whatever
	// their text came from; nil replaces nothing.
	Redact *secret.Redactor
}

// ReportError is a report that could not be rendered or written.
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

// WriteReports writes every report that has a path. It tries them all, so
// that one unusable path does not cost the others, and returns every error
// (errors.Join of *ReportError).
func WriteReports(run *model.Run, p Paths, o FileOptions) error {
	// The oversized-summary note names the JSON report as the user gave it.
	where := "the step log"
	if p.JSON != "" {
		where = p.JSON
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var errs []error
	keep := func(err error) { errs = append(errs, err) }
	if err := o.replace("JUnit report", p.JUnit, func(w io.Writer) error {
		return junit.Write(w, run, junit.Options{Properties: junit.GitHubProperties(getenv)})
	}); err != nil {
		keep(err)
	}
	if err := o.replace("JSON report", p.JSON, func(w io.Writer) error { return jsonout.Write(w, run) }); err != nil {
		keep(err)
	}
	if p.Summary != "" || p.Markdown != "" {
		var b bytes.Buffer
		if err := markdown.WriteSummary(&b, run, o.Markdown); err != nil {
			keep(&ReportError{Report: "job summary", Rendering: true, Err: err})
		} else {
			b.WriteString(ImplementationsSummary(run, o.Markdown))
			if b.Len() > limit.StepSummaryBytes {
				// GitHub would drop it whole; say where the report is instead.
				b.Reset()
				fmt.Fprintf(&b, "## DRP2 fixtures\n\nThe report is larger than the 1 MiB job summary limit: see %s.\n", where)
			}
			md := o.Redact.Bytes(b.Bytes())
			if p.Summary != "" {
				// Like the other reports, a summary path may name folders
				// that do not exist yet ($GITHUB_STEP_SUMMARY's always does).
				summary := workspace.Resolve(o.Dir, p.Summary)
				if err := os.MkdirAll(filepath.Dir(summary), 0o755); err != nil {
					keep(&ReportError{Report: "job summary", Err: err})
				} else if err := workspace.Append(summary, md); err != nil {
					keep(&ReportError{Report: "job summary", Err: err})
				}
			}
			if err := o.replace("Markdown report", p.Markdown, func(w io.Writer) error {
				_, err := w.Write(md)
				return err
			}); err != nil {
				keep(err)
			}
		}
	}
	return errors.Join(errs...)
}

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

// replace renders a report and writes it to path, creating its folders.
func (o FileOptions) replace(report, path string, render func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	if err := render(&b); err != nil {
		return &ReportError{Report: report, Rendering: true, Err: err}
	}
	if err := workspace.New(o.Dir, o.Contained).WriteFile(path, o.Redact.Bytes(b.Bytes())); err != nil {
		return &ReportError{Report: report, Err: err}
	}
	return nil
}

// ExitCode is 3 for a renderer's failure (a bug), else 2 (an unusable
// path).
func (e *ReportError) ExitCode() int {
	if e.Rendering {
		return gate.ExitInternal
	}
	return gate.ExitUsage
}
