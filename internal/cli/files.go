package cli

// Report files: JUnit XML, the JSON document and the Markdown job summary,
// for run and action alike. Each report is rendered in memory first, so a
// rendering error never leaves half a file.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/junit"
	"github.com/drp2/drp2-fixtures/report/limit"
	"github.com/drp2/drp2-fixtures/report/markdown"
	"github.com/drp2/drp2-fixtures/runner"
)

// Paths are the report files to write; an empty path is skipped, a
// relative one is taken relative to the working directory.
type Paths struct {
	JUnit string
	JSON  string
	// Summary is appended to, as $GITHUB_STEP_SUMMARY expects. It is the
	// runner's own file in the action, so it is not held to the workspace.
	Summary string
}

// fileOptions carry what the report files need beyond the run.
type fileOptions struct {
	// Dir is the working directory: relative paths are resolved against
	// it, and report paths below it are written without following links.
	Dir string
	// Contained refuses a JUnit or JSON path that resolves outside Dir (the
	// action, where the pull request lays out the workspace).
	Contained bool
	// Getenv reads the GitHub run evidence recorded in the JUnit properties.
	Getenv   func(string) string
	Markdown markdown.Options
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

// writeReports writes every report that has a path. It tries them all, so
// that one unusable path does not cost the others, and returns every error
// (errors.Join of *ReportError).
func writeReports(run *model.Run, p Paths, o fileOptions) error {
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
	if p.Summary != "" {
		var b bytes.Buffer
		if err := markdown.WriteSummary(&b, run, o.Markdown); err != nil {
			keep(&ReportError{Report: "job summary", Rendering: true, Err: err})
		} else {
			b.WriteString(implementationsSummary(run, o.Markdown))
			if b.Len() > limit.StepSummaryBytes {
				// GitHub would drop it whole; say where the report is instead.
				b.Reset()
				fmt.Fprintf(&b, "## DRP2 fixtures\n\nThe report is larger than the 1 MiB job summary limit: see %s.\n", where)
			}
			if err := appendFile(under(o.Dir, p.Summary), b.Bytes()); err != nil {
				keep(&ReportError{Report: "job summary", Err: err})
			}
		}
	}
	return errors.Join(errs...)
}

// reportErrors lists the reports that writeReports could not write.
func reportErrors(err error) []*ReportError {
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

func under(dir, p string) string {
	if p == "" || dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// replace renders a report and writes it to path, creating its folders.
func (o fileOptions) replace(report, path string, render func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	if err := render(&b); err != nil {
		return &ReportError{Report: report, Rendering: true, Err: err}
	}
	if err := writeFile(o.Dir, path, o.Contained, b.Bytes()); err != nil {
		return &ReportError{Report: report, Err: err}
	}
	return nil
}

// writeFile writes data to path (relative to dir), creating missing
// folders, through openFile.
func writeFile(dir, path string, contained bool, data []byte) error {
	f, err := openFile(dir, path, contained, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return err
	}
	return writeClose(f, data)
}

// openFile opens path (relative to dir) for a report or an input file. A
// path below dir is opened inside dir as an os.Root, refusing a link at
// the file or at any folder on the way: a pull request can commit a link
// named like a report or an input file, and its target must never be
// overwritten or read into a report. A path outside dir is refused when
// contained, else opened as given (a command-line user's own choice).
// Opening to write creates the missing folders.
func openFile(dir, path string, contained bool, flag int) (*os.File, error) {
	write := flag&(os.O_WRONLY|os.O_RDWR) != 0
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, abs)
	}
	rel, inside := runner.Within(dir, abs)
	if !inside {
		if contained {
			return nil, fmt.Errorf("%s lies outside the workspace %s: files must stay inside it", path, dir)
		}
		if write {
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				return nil, err
			}
		}
		return os.OpenFile(abs, flag, 0o644)
	}
	if rel == "." || rel == "" {
		return nil, fmt.Errorf("%s is the workspace folder itself, not a file", path)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if err := noLinks(root, rel, write); err != nil {
		return nil, err
	}
	// O_NOFOLLOW closes the gap between the check above and the open; the
	// os.Root keeps every folder on the way inside dir.
	return root.OpenFile(rel, flag|noFollow, 0o644)
}

// writeClose writes data to f and closes it, reporting the first error.
func writeClose(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// noLinks walks rel inside root and refuses a link at any step, or a
// folder on the way that is not a folder. For a write (mkdirs) it creates
// the missing folders; for a read a missing element is an error.
// The last element must be a regular file when it exists.
func noLinks(root *os.Root, rel string, mkdirs bool) error {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i := range parts {
		sub := filepath.FromSlash(strings.Join(parts[:i+1], "/"))
		st, err := root.Lstat(sub)
		last := i == len(parts)-1
		switch {
		case errors.Is(err, fs.ErrNotExist):
			switch {
			case !mkdirs:
				// Reading: there is nothing to read.
				return err
			case last:
				// Writing: the file is created by the caller.
			default:
				if err := root.Mkdir(sub, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
					return err
				}
			}
		case err != nil:
			return err
		case st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: files a pull request lays out are never read or written through a link", sub)
		case !last && !st.IsDir():
			return fmt.Errorf("%s is not a folder", sub)
		case last && !st.Mode().IsRegular():
			return fmt.Errorf("%s exists and is not a regular file", sub)
		}
	}
	return nil
}

// maxInputFile bounds an input file the front end reads whole (a
// known-failures list, a manifest, a JSON report to merge or compare
// with): far above any real one, far below what would hurt a runner.
const maxInputFile = 256 << 20

// readFile reads an input file at path (relative to dir) through
// openFile, bounded by maxInputFile.
func readFile(dir, path string, contained bool) ([]byte, error) {
	f, err := openFile(dir, path, contained, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInputFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxInputFile {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, maxInputFile>>20)
	}
	return data, nil
}

// appendFile appends data to path, creating the file when needed. It is
// for the files the Actions runner hands the step (summary, outputs).
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	return writeClose(f, data)
}
