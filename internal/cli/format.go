package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/report"
)

// FormatFlag is the --format flag of a command writing one kind of
// document: it accepts the formats that serve the kind, and says which
// when given another.
type FormatFlag struct {
	kind report.Kind
	f    *report.Format
}

// addFormatFlag defines --format on fs for documents of kind, text unless
// given.
func addFormatFlag(fs *flag.FlagSet, k report.Kind) *FormatFlag {
	v := &FormatFlag{kind: k, f: report.Lookup("text")}
	var help []string
	for _, f := range report.FormatsOf(k) {
		help = append(help, f.Name+" ("+f.HelpFor(k)+")")
	}
	fs.Var(v, "format", "standard output `FORMAT`: "+strings.Join(help, ", "))
	return v
}

// Set accepts a format that serves the flag's kind.
func (v *FormatFlag) Set(s string) error {
	f := report.Lookup(s)
	if f == nil || !f.Serves(v.kind) {
		return fmt.Errorf("want %s", report.FormatNames(v.kind))
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
func (v *FormatFlag) Format() *report.Format { return v.f }
