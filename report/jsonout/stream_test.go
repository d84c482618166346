package jsonout

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// checkStreamMatchesDocument fails unless the streamed report of run is
// the report built and encoded whole, byte for byte.
func checkStreamMatchesDocument(t *testing.T, name string, run *model.Run) {
	t.Helper()
	var whole, streamed bytes.Buffer
	errWhole := writeDocumentWhole(&whole, run)
	errStreamed := Write(&streamed, run)
	if (errWhole == nil) != (errStreamed == nil) {
		t.Fatalf("%s: the whole document's error %v, the stream's %v", name, errWhole, errStreamed)
	}
	if errWhole != nil {
		return
	}
	if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
		t.Errorf("%s: the streamed report differs from the whole document:\n%s", name, firstDifference(whole.Bytes(), streamed.Bytes()))
	}
}

// firstDifference shows the line where want and got first differ.
func firstDifference(want, got []byte) string {
	lw, lg := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := range min(len(lw), len(lg)) {
		if !bytes.Equal(lw[i], lg[i]) {
			return "line " + strconv.Itoa(i+1) + ":\nwant " + string(lw[i]) + "\ngot  " + string(lg[i])
		}
	}
	return "one is a prefix of the other (" + strconv.Itoa(len(want)) + " bytes, " + strconv.Itoa(len(got)) + " streamed)"
}

// TestStreamMatchesDocument: every sample run, bounded and not, is
// written as the whole document was.
func TestStreamMatchesDocument(t *testing.T) {
	runs := map[string]*model.Run{
		"run": sample.Run(), "passing": sample.Passing(), "large": sample.Large(300), "huge": sample.Huge(),
		"compared": sample.Compared(), "unavailable": sample.Unavailable(),
		"implementations": sample.WithImplementations(), "many implementations": sample.ManyImplementations(40, 6),
		"webgpu": sample.WithWebGPU(), "expectations": sample.WithExpectations(),
		"schema edit": sample.SchemaEdit(30), "runtime failures": sample.RuntimeFailures(),
		"empty": {}, "hostile": hostileRun(),
	}
	for name, run := range runs {
		checkStreamMatchesDocument(t, name, run)
		checkStreamMatchesDocument(t, name+", bounded", bound.Run(run))
	}
}

// hostileText is every kind of string encoding/json escapes, and the
// "#[" the log escapes, alone and side by side.
var hostileText = []string{
	"", "plain", `quote " and \ backslash`, "<script>&amp;</script>", "tab\tnewline\ncr\r", "nul\x00 bell\x07 esc\x1b[2J del\x7f",
	"\u2028 line and \u2029 paragraph separators", "invalid \xff\xfe utf-8", "é 日本 🎉", "##[set-output name=x;]y", "#[", "#", "[#[#[",
	"::error::forged", "\u200b zero width", "\b\f", "\ufeff",
	// Each escaped character alone, so that no other one hides it.
	"a < b", "a > b", "a & b", `a " b`, `a \ b`, "a \x7f b", "a \x01 b", "a \u2028 b", "a \xc3 b", "a é b", "a #[ b",
}

// hostileRun carries hostileText in every string a report writes of a
// result, an implementation, a finding and a map key.
func hostileRun() *model.Run {
	run := sample.WithImplementations()
	for i, s := range hostileText {
		idx := i
		r := model.Result{Path: "fixtures/" + s, RelPath: s + ".json", Name: s, Class: model.Classes[i%len(model.Classes)],
			Actual:   model.Actual{Outcome: model.Outcome(s), Phase: model.Phase(s), Code: s, Message: s, Rule: s, CommandIndex: &idx},
			Expected: model.Expected{Outcome: s, Phase: s, Code: s, CommandIndex: &idx},
			Reason:   s, Fix: s, KnownFailure: s, Digest: model.Digest{File: s, Commands: s},
			Diagnostics: []model.Diagnostic{{Source: s, Message: s}}, DetailLeftOut: i%2 == 0, Carried: i%3 == 0,
			Attempts: []model.Actual{{Outcome: model.Outcome(s), Message: s}},
			Listing:  &model.Listing{Expect: model.ExpectFlaky, Reason: s, Entry: s},
			Duration: time.Duration(i) * 1234567, Span: &model.Span{Line: i, Column: 2 * i}}
		run.Results = append(run.Results, r)
		run.Findings = append(run.Findings, model.Finding{Kind: model.FindingKind(s), Path: s, Message: s})
		im := &run.Implementations[i%len(run.Implementations)]
		im.Results = append(im.Results, r)
		if im.Level2 == nil {
			im.Level2 = map[string]bool{}
		}
		im.Level2[s] = i%2 == 0
		if im.Readbacks == nil {
			im.Readbacks = map[string][][]byte{}
		}
		im.Readbacks[s] = [][]byte{[]byte(s), nil}
		im.Stderr += s
		if run.FixtureReadbacks == nil {
			run.FixtureReadbacks = map[string][][]byte{}
		}
		run.FixtureReadbacks[s] = [][]byte{[]byte(s)}
	}
	big := "1" + strings.Repeat("0", 30)
	run.Results[0].Expected.BigCommandIndex = big
	run.Summary = model.Summarize(len(run.Results), run.Results, run.Findings)
	return run
}

// A number encoding/json refuses is refused by the stream too, with its
// words.
func TestStreamRefusesWhatTheEncoderRefuses(t *testing.T) {
	run := sample.Run()
	n := 1
	run.Results[0].Expected.CommandIndex, run.Results[0].Expected.BigCommandIndex = &n, "01"
	var whole, streamed bytes.Buffer
	errWhole, errStreamed := writeDocumentWhole(&whole, run), Write(&streamed, run)
	if errWhole == nil || errStreamed == nil || !strings.Contains(errStreamed.Error(), "invalid number literal") {
		t.Errorf("whole: %v; streamed: %v", errWhole, errStreamed)
	}
}

// failingWriter takes room bytes, then fails as a full disk does.
type failingWriter struct{ room int }

var errFull = errors.New("no space left on device")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.room {
		n := w.room
		w.room = 0
		return n, errFull
	}
	w.room -= len(p)
	return len(p), nil
}

// A writer that fails part-way ends the report with its error.
func TestStreamStopsAtAWriteError(t *testing.T) {
	for _, room := range []int{0, 10, 5000, 100000} {
		if err := Write(&failingWriter{room: room}, sample.Large(2000)); !errors.Is(err, errFull) {
			t.Errorf("room %d: %v", room, err)
		}
	}
}
