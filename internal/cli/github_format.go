package cli

import (
	"io"

	"github.com/drp2/drp2-fixtures/internal/frontend"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/text"
)

// writeGitHub writes the text report followed by workflow-command
// annotations for the mismatches, for a GitHub Actions log.
func writeGitHub(w io.Writer, run *model.Run, o text.Options) error {
	if err := text.Write(w, run, o); err != nil {
		return err
	}
	return annotation.WriteCommands(w, frontend.AllAnnotations(run, frontend.FindingsAll), annotation.CommandOptions{})
}
