package markdown

import (
	"fmt"
	"io"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Report is the whole Markdown report of a run, as the job summary and a
// Markdown report file carry it: the summary, then the implementations'
// matrix, the manifest comparison and the rule coverage when the run has
// them. A report GitHub would drop whole for passing the job summary's
// limit is replaced by a note saying where the report is: opts.WholeReport,
// else the step log.
func Report(run *model.Run, opts Options) string {
	var b strings.Builder
	b.WriteString(Summary(run, opts))
	if run != nil && len(run.Implementations) > 0 {
		// Within a quarter of the limit, after the run's own report.
		b.WriteString("\n" + Matrix(run, opts, func(s string) bool { return len(s) <= escape.StepSummaryBytes/4 }))
	}
	if run != nil && run.Manifest != nil {
		b.WriteString("\n")
		Manifest(&b, run.Manifest) // into memory: cannot fail
	}
	if run != nil && run.Coverage != nil {
		b.WriteString("\n")
		Coverage(&b, run.Coverage)
	}
	if b.Len() > escape.StepSummaryBytes {
		where := "the step log"
		if opts.WholeReport != "" {
			where = escape.MarkdownCode(opts.WholeReport)
		}
		return fmt.Sprintf("## DRP2 fixtures\n\nThe report is larger than the 1 MiB job summary limit: see %s.\n", where)
	}
	return b.String()
}

// WriteReport writes Report.
func WriteReport(w io.Writer, run *model.Run, opts Options) error {
	_, err := io.WriteString(w, Report(run, opts))
	return err
}
