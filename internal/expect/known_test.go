package expect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestParse(t *testing.T) {
	l, err := ParseKnownFailures(strings.NewReader("# comment\n\n./negative/a.json\treason one\n  fixtures/negative/b.json   two  words \n"), "known.txt")
	if err != nil {
		t.Fatal(err)
	}
	entry := func(p, reason string, line int) Entry {
		return Entry{Implementation: model.Validator, Path: p, Expect: model.ExpectFail, Reason: reason, File: "known.txt", Line: line, Known: true}
	}
	want := []Entry{entry("negative/a.json", "reason one", 3), entry("fixtures/negative/b.json", "two  words", 4)}
	if !reflect.DeepEqual(l.Entries, want) {
		t.Errorf("entries %+v, want %+v", l.Entries, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"negative/a.json\n", "known.txt:1: negative/a.json has no reason; write the reason after the path"},
		{"a.json x\n# c\n./a.json y\n", "known.txt:3: a.json is already listed on line 1"},
		{"a.json \xff\n", "known.txt:1: not valid UTF-8"},
		{strings.Repeat("x", maxLine+1), "known.txt: bufio.Scanner: token too long"},
	} {
		if _, err := ParseKnownFailures(strings.NewReader(c.in), "known.txt"); err == nil || err.Error() != c.want {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.want)
		}
	}
}

func result(rel string, passed bool) model.Result {
	return model.Result{Path: "fixtures/" + rel, RelPath: rel, Passed: passed, Class: model.ClassNegative}
}

func TestApply(t *testing.T) {
	run := &model.Run{Results: []model.Result{
		result("negative/known.json", false),
		result("negative/fixed.json", true),
		result("negative/other.json", false),
	}}
	run.Summary = model.Summarize(3, run.Results, nil)
	l, err := ParseKnownFailures(strings.NewReader("negative/known.json not yet\nfixtures/negative/fixed.json was broken\nnegative/gone.json old\n"), "k.txt")
	if err != nil {
		t.Fatal(err)
	}
	l.Apply(run)
	if run.Results[0].KnownFailure != "not yet" || run.Results[1].KnownFailure != "" || run.Results[2].KnownFailure != "" {
		t.Errorf("known failures %q %q %q", run.Results[0].KnownFailure, run.Results[1].KnownFailure, run.Results[2].KnownFailure)
	}
	s := run.Summary
	// A listed fixture that passes is an unexpected pass, as of any
	// expectations entry, not a finding.
	if s.Failed != 2 || s.KnownFailures != 1 || s.Unexcused() != 1 || s.Findings != 1 || s.UnexpectedPasses != 1 {
		t.Errorf("summary %+v", s)
	}
	if k := run.Results[1].Kind(); k != model.KindUnexpectedPass {
		t.Errorf("kind of the passing listed fixture %v", k)
	}
	want := []model.Finding{
		{Kind: model.FindingKnownUnused, Path: "negative/gone.json", Message: "listed as a known failure (k.txt:3) but no fixture has this path; remove it from the list"},
	}
	if !reflect.DeepEqual(run.Findings, want) {
		t.Errorf("findings %+v", run.Findings)
	}
}

// TestApplyFiltered: a run of part of the corpus does not call the
// entries it left out unused.
func TestApplyFiltered(t *testing.T) {
	run := &model.Run{Results: []model.Result{result("negative/a.json", false)}}
	run.Summary = model.Summarize(5, run.Results, nil)
	l, _ := ParseKnownFailures(strings.NewReader("negative/b.json reason\n"), "k.txt")
	l.Apply(run)
	if len(run.Findings) != 0 {
		t.Errorf("findings %+v", run.Findings)
	}
}

// FuzzParseKnownFailures: any list gives entries with a path and a reason, or an error
// naming the list.
func FuzzParseKnownFailures(f *testing.F) {
	f.Add("# c\nnegative/a.json reason\n")
	f.Add("a.json\n")
	f.Add("a.json x\n./a.json y\n")
	f.Fuzz(func(t *testing.T, in string) {
		l, err := ParseKnownFailures(strings.NewReader(in), "k.txt")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "k.txt") {
				t.Fatalf("error %q does not name the list", err)
			}
			return
		}
		for _, e := range l.Entries {
			if e.Path == "" || e.Reason == "" || e.Line < 1 {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}

// A byte-order mark at the start of the file is not part of the first
// entry's path.
func TestParseBOM(t *testing.T) {
	l, err := ParseKnownFailures(strings.NewReader("\ufeffnegative/a.json reason\n"), "known.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 1 || l.Entries[0].Path != "negative/a.json" {
		t.Errorf("entries %+v", l.Entries)
	}
}
