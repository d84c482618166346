package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/report/junit"
	"github.com/drp2/drp2-fixtures/report/markdown"
	"github.com/drp2/drp2-fixtures/report/text"
)

// reportFiles are the report files a run writes; empty paths are skipped.
type reportFiles struct {
	junit   string
	summary string
	json    string
}

// ReportOptions carry what the file reports need beyond the run.
type ReportOptions struct {
	Env      Env
	Markdown markdown.Options
}

// writeFiles renders each report in memory and then writes it, so that a
// rendering error never leaves half a file. The summary is appended, as
// $GITHUB_STEP_SUMMARY expects; the others are replaced.
func writeFiles(run *model.Run, f reportFiles, o ReportOptions) error {
	if f.junit != "" {
		var b bytes.Buffer
		if err := junit.Write(&b, run, junit.Options{Properties: GitHubProperties(o.Env.getenv)}); err != nil {
			return fmt.Errorf("render JUnit: %w", err)
		}
		if err := os.WriteFile(f.junit, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write JUnit: %w", err)
		}
	}
	if f.json != "" {
		var b bytes.Buffer
		if err := jsonout.Write(&b, run); err != nil {
			return fmt.Errorf("render JSON: %w", err)
		}
		if err := os.WriteFile(f.json, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write JSON: %w", err)
		}
	}
	if f.summary != "" {
		var b bytes.Buffer
		if err := markdown.WriteSummary(&b, run, o.Markdown); err != nil {
			return fmt.Errorf("render summary: %w", err)
		}
		if err := appendFile(f.summary, b.Bytes()); err != nil {
			return fmt.Errorf("write summary: %w", err)
		}
	}
	return nil
}

func appendFile(path string, data []byte) error {
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

// GitHubProperties returns the run evidence GitHub Actions provides, for
// the JUnit suite properties; none outside Actions.
func GitHubProperties(getenv func(string) string) []junit.Property {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	var props []junit.Property
	for _, p := range []struct{ name, env string }{
		{"github.repository", "GITHUB_REPOSITORY"},
		{"github.sha", "GITHUB_SHA"},
		{"github.ref", "GITHUB_REF"},
		{"github.run_id", "GITHUB_RUN_ID"},
		{"github.run_attempt", "GITHUB_RUN_ATTEMPT"},
		{"github.workflow", "GITHUB_WORKFLOW"},
	} {
		if v := getenv(p.env); v != "" {
			props = append(props, junit.Property{Name: p.name, Value: v})
		}
	}
	return props
}

// writeGitHub writes the text report followed by workflow-command
// annotations for the mismatches, for a GitHub Actions log.
func writeGitHub(w io.Writer, run *model.Run) error {
	if err := text.Write(w, run); err != nil {
		return err
	}
	return annotation.WriteCommands(w, annotation.Build(run), annotation.CommandOptions{})
}
