package expect

import (
	"slices"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestParseEntries(t *testing.T) {
	in := "\ufeff# header\n" +
		"rt  negative/a.json  fail  # bug 12 # and more\n" +
		"*@*SwiftShader*\tpositive\\draw\\ flaky\n" +
		"rt ./positive/b.json skip\n" +
		"rt positive/b.json fail\n" + // the same entry again
		"rt positive/c.json maybe\n" +
		"rt@ positive/c.json fail\n" +
		"rt /abs.json fail\n" +
		"rt ../up.json fail\n" +
		"rt only-two\n" +
		"rt \xff.json fail\n"
	l, err := Parse(strings.NewReader(in), "exp.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Implementation: "rt", Path: "negative/a.json", Expect: model.ExpectFail, Reason: "bug 12 # and more", File: "exp.txt", Line: 2},
		{Implementation: "*", Device: "*SwiftShader*", Path: "positive/draw/", Expect: model.ExpectFlaky, File: "exp.txt", Line: 3},
		{Implementation: "rt", Path: "positive/b.json", Expect: model.ExpectSkip, File: "exp.txt", Line: 4},
	}
	if len(l.Entries) != len(want) {
		t.Fatalf("entries %+v", l.Entries)
	}
	for i := range want {
		if l.Entries[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, l.Entries[i], want[i])
		}
	}
	var problems []string
	for _, p := range l.Problems {
		if p.Kind != FindingMalformed || p.Path != "exp.txt" {
			t.Errorf("problem %+v", p)
		}
		problems = append(problems, p.Message)
	}
	wantProblems := []string{
		"exp.txt:5: positive/b.json is already listed for rt on line 4; the line is left out",
		`exp.txt:6: expectation "maybe" is not fail, flaky or skip; the line is left out`,
		`exp.txt:7: "rt@": want NAME@DEVICE-GLOB, both non-empty; the line is left out`,
		`exp.txt:8: path "/abs.json" is not relative to the corpus root; the line is left out`,
		`exp.txt:9: path "../up.json" is not relative to the corpus root; the line is left out`,
		"exp.txt:10: 2 fields, want IMPLEMENTATION PATH EXPECTATION [KEY=VALUE...] [# reason]; the line is left out",
		"exp.txt:11: not valid UTF-8; the line is left out",
	}
	if strings.Join(problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
}

// TestMatch: the most specific entry decides, then the first listed.
func TestMatch(t *testing.T) {
	l, _ := Parse(strings.NewReader(
		"* positive/ flaky\n"+
			"rt positive/ skip\n"+
			"rt positive/draw/ fail # folder\n"+
			"rt@*lavapipe* positive/draw/ skip\n"+
			"* positive/draw/x.json fail # file\n"+
			"rt positive/draw/x.json flaky\n"), "e")
	r := func(rel string) *model.Result { return &model.Result{RelPath: rel} }
	for _, c := range []struct {
		name, desc, rel string
		want            int // line, 0 for none
	}{
		{"rt", "", "positive/draw/x.json", 6},
		{"other", "", "positive/draw/x.json", 5},
		{"rt", "", "positive/draw/y.json", 3},
		{"rt", "Mesa llvmpipe LAVAPIPE", "positive/draw/y.json", 4},
		{"rt", "", "positive/z.json", 2},
		{"other", "", "positive/z.json", 1},
		{"rt", "", "negative/z.json", 0},
		{"rt", "", "positive", 0},
	} {
		e := l.Match(Target{Name: c.name, Device: c.desc}, r(c.rel))
		got := 0
		if e != nil {
			got = e.Line
		}
		if got != c.want {
			t.Errorf("%s %q %s: line %d, want %d", c.name, c.desc, c.rel, got, c.want)
		}
	}
}

// TestEntryName: a name that would read back as another entry is
// quoted, and every name written reads back as itself.
func TestEntryName(t *testing.T) {
	for name, want := range map[string]string{"rt": "rt", "my-runtime_2.0": "my-runtime_2.0", "": "", "*": "",
		"a b": `"a b"`, "a#b": `"a#b"`, "a@b": `"a@b"`, "a\nb": `"a\nb"`, "\u202e": `"\u202e"`, `say "hi"\`: `"say \"hi\"\\"`,
		"webgpu.js on node/swiftshader": `"webgpu.js on node/swiftshader"`, "a\u00a0b": `"a\u00a0b"`} {
		got, ok := EntryName(name)
		if got != want || ok != (want != "") {
			t.Errorf("EntryName(%q) = %s, %v; want %s", name, got, ok, want)
			continue
		}
		if !ok {
			continue
		}
		l, _ := Parse(strings.NewReader(got+"@*gpu* positive/a.json fail # why\n"), "e.txt")
		if len(l.Entries) != 1 || l.Entries[0].Implementation != name || l.Entries[0].Device != "*gpu*" || l.Entries[0].Reason != "why" {
			t.Errorf("%s read back as %+v %v", got, l.Entries, l.Problems)
		}
	}
}

// TestParseQuoted: quotes hold white space, '#' and '@' in a field; a
// quote that is not closed, or an unknown escape, is a problem.
func TestParseQuoted(t *testing.T) {
	in := `"webgpu.js on node/swiftshader" negative/a.json fail # the host's default name` + "\n" +
		`"lab #2 @ home"@"*Google SwiftShader*" negative/b.json flaky` + "\n" +
		`"open negative/c.json fail` + "\n" +
		`"bad \q" negative/c.json fail` + "\n" +
		`"" negative/c.json fail` + "\n" +
		`webgpu.js on node/swiftshader negative/c.json fail` + "\n"
	l, _ := Parse(strings.NewReader(in), "e.txt")
	want := []Entry{
		{Implementation: "webgpu.js on node/swiftshader", Path: "negative/a.json", Expect: model.ExpectFail, Reason: "the host's default name", File: "e.txt", Line: 1},
		{Implementation: "lab #2 @ home", Device: "*Google SwiftShader*", Path: "negative/b.json", Expect: model.ExpectFlaky, File: "e.txt", Line: 2},
	}
	if !slices.Equal(l.Entries, want) {
		t.Errorf("entries %+v", l.Entries)
	}
	var problems []string
	for _, p := range l.Problems {
		problems = append(problems, p.Message)
	}
	wantProblems := []string{
		`e.txt:3: quoted text "open negative/c.json fail is not closed or has an unknown escape; write a quote as \" and a backslash as \\; the line is left out`,
		`e.txt:4: quoted text "bad \q" is not closed or has an unknown escape; write a quote as \" and a backslash as \\; the line is left out`,
		"e.txt:5: the implementation's name is empty; the line is left out",
		`e.txt:6: 5 fields, want IMPLEMENTATION PATH EXPECTATION [KEY=VALUE...] [# reason]; quote a name with spaces, '#' or '@' ("a name"); the line is left out`,
	}
	if !slices.Equal(problems, wantProblems) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
}

// TestParseUnderCorpus: a path as the reports print it, under the
// corpus's folder, is taken relative to the corpus.
func TestParseUnderCorpus(t *testing.T) {
	in := "rt spec/drp2/fixtures/negative/a.json fail\nrt spec/drp2/fixtures/negative/ flaky\nrt ./spec/drp2/fixtures/negative/a.json fail\nrt spec/drp2/other/b.json fail\n"
	l, _ := ParseUnder(strings.NewReader(in), "e.txt", "./spec/drp2/fixtures")
	var paths []string
	for _, e := range l.Entries {
		paths = append(paths, e.Path)
	}
	if want := []string{"negative/a.json", "negative/", "spec/drp2/other/b.json"}; !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	if len(l.Problems) != 1 || !strings.Contains(l.Problems[0].Message, "e.txt:3: negative/a.json is already listed for rt on line 1") {
		t.Errorf("problems %+v", l.Problems)
	}
}

// TestUpdate: stale entries of the file go, new failures come at the end,
// everything else stays byte for byte; the diff is diff -u's.
func TestUpdate(t *testing.T) {
	src := "# head\r\nrt negative/a.json fail # bug 1\nrt negative/b.json fail\n\n# tail\nother negative/a.json fail\n" +
		"1\n2\n3\n4\n5\n6\n7\n8\nrt negative/c.json fail # far away\nend"
	l, _ := Parse(strings.NewReader(src), "e.txt")
	run := &model.Run{Results: []model.Result{
		{RelPath: "negative/a.json"}, {RelPath: "negative/b.json", Passed: true},
	}, Implementations: []model.Implementation{
		{Name: "rt", Results: []model.Result{
			{RelPath: "negative/a.json"},
			{RelPath: "negative/b.json", Passed: true},
			{RelPath: "negative/c.json", Passed: true},
			{RelPath: "negative/d.json", Actual: model.Actual{Outcome: model.HarnessError}},
			{RelPath: "negative/e.json", Actual: model.Actual{Outcome: model.CorpusError}},
		}},
		{Name: "bad name", Results: []model.Result{{RelPath: "negative/a.json"}}},
		{Name: "other", Results: []model.Result{{RelPath: "negative/a.json"}}},
	}}
	run.Summary = model.Summarize(2, run.Results, nil)
	l.Apply(run)
	out, diff := Update([]byte(src), "e.txt", l, run)
	want := "# head\nrt negative/a.json fail # bug 1\n\n# tail\nother negative/a.json fail\n" +
		"1\n2\n3\n4\n5\n6\n7\n8\nend\n" +
		"drp2-fixtures negative/a.json fail # new\nrt negative/d.json fail # new\n\"bad name\" negative/a.json fail # new\n"
	if string(out) != want {
		t.Errorf("updated:\n%s\nwant:\n%s", out, want)
	}
	wantDiff := "--- e.txt\n+++ e.txt\n" +
		"@@ -1,6 +1,5 @@\n # head\n rt negative/a.json fail # bug 1\n-rt negative/b.json fail\n \n # tail\n other negative/a.json fail\n" +
		"@@ -12,5 +11,7 @@\n 6\n 7\n 8\n-rt negative/c.json fail # far away\n end\n+drp2-fixtures negative/a.json fail # new\n+rt negative/d.json fail # new\n+\"bad name\" negative/a.json fail # new\n"
	if diff != wantDiff {
		t.Errorf("diff:\n%s\nwant:\n%s", diff, wantDiff)
	}
}

// FuzzParse: any file gives well-formed entries and problems that name
// the file, never a panic.
func FuzzParse(f *testing.F) {
	f.Add("rt negative/a.json fail # bug\n* positive/ flaky\nx@*y* a skip\n")
	f.Add("a b\n\xff\n")
	f.Fuzz(func(t *testing.T, in string) {
		l, err := Parse(strings.NewReader(in), "e.txt")
		if err != nil {
			return // a line over the bound
		}
		for _, e := range l.Entries {
			if e.Path == "" || e.Implementation == "" || e.Expect == model.ExpectPass || e.Line < 1 {
				t.Fatalf("entry %+v", e)
			}
		}
		for _, p := range l.Problems {
			if !strings.HasPrefix(p.Message, "e.txt:") {
				t.Fatalf("problem %q", p.Message)
			}
		}
	})
}
