package report

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/secret"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// The JSON report streamed to its file (FileOptions.Stream) is the one
// rendered whole and redacted whole, byte for byte, a secret in many of
// its results, across the runs of lines it is redacted by, included.
func TestJSONReportStreamedIsTheRenderedOne(t *testing.T) {
	const token = "ghp_streamedSecret1234567890"
	run := sample.Large(3000)
	for i := range run.Results {
		if i%7 == 0 {
			run.Results[i].Actual.Message = "the token " + token + " and #[it] <again> " + token
		}
	}
	redact := secret.NewRedactor(token).Bytes
	var whole []byte
	save := func(path string, data []byte, appendTo bool) error { whole = data; return nil }
	if err := WriteReports(run, Paths{JSON: "report.json"}, FileOptions{Write: save, Redact: redact}); err != nil {
		t.Fatal(err)
	}
	var streamed bytes.Buffer
	stream := func(path string, write func(io.Writer) error) error {
		if path != "report.json" {
			t.Errorf("streamed to %q", path)
		}
		return write(&streamed)
	}
	if err := WriteReports(run, Paths{JSON: "report.json"}, FileOptions{Write: save, Stream: stream, Redact: redact}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(whole, streamed.Bytes()) || strings.Contains(streamed.String(), token) {
		t.Errorf("the streamed report (%d bytes) is not the one rendered whole (%d bytes), or holds the token", streamed.Len(), len(whole))
	}
	if streamed.Len() < 4*redactRun || !strings.Contains(streamed.String(), secret.Mask) {
		t.Errorf("the report (%d bytes) spans too few runs of lines to test their redaction", streamed.Len())
	}
}

// A full disk while the report is streamed is the record's error (exit
// code of a record lost); a renderer that fails is the tool's. Either
// way the error names the report.
func TestJSONReportStreamErrors(t *testing.T) {
	full := func(path string, write func(io.Writer) error) error {
		return write(&limited{room: 5000})
	}
	err := WriteReports(sample.Large(500), Paths{JSON: "report.json"}, FileOptions{Stream: full, Redact: func(b []byte) []byte { return b }})
	errs := ReportErrors(err)
	if len(errs) != 1 || errs[0].Rendering || !errors.Is(err, syscall.ENOSPC) || exit.KindOf(err) != exit.Record ||
		!strings.HasPrefix(err.Error(), "write JSON report: ") {
		t.Errorf("a full disk: %v", err)
	}
	run := sample.Run()
	n := 1
	run.Results[0].Expected.CommandIndex, run.Results[0].Expected.BigCommandIndex = &n, "01"
	ok := func(path string, write func(io.Writer) error) error { return write(io.Discard) }
	err = WriteReports(run, Paths{JSON: "report.json"}, FileOptions{Stream: ok})
	if errs := ReportErrors(err); len(errs) != 1 || !errs[0].Rendering || exit.KindOf(err) != exit.Tool ||
		!strings.HasPrefix(err.Error(), "render JSON report: ") {
		t.Errorf("a renderer's error: %v", err)
	}
}

// limited takes room bytes, then fails as a full disk does.
type limited struct{ room int }

func (l *limited) Write(p []byte) (int, error) {
	if len(p) > l.room {
		n := l.room
		l.room = 0
		return n, syscall.ENOSPC
	}
	l.room -= len(p)
	return len(p), nil
}
