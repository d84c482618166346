package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// render is the text report of run as the gate bounds it for every sink.
func render(t *testing.T, run *model.Run, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, bound.Run(run), opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	golden.Check(t, "sample.txt", []byte(render(t, sample.Run(), Options{})))
	golden.Check(t, "verbose.txt", []byte(render(t, sample.Run(), Options{Verbose: true})))
	golden.Check(t, "grouped-color.txt", []byte(render(t, sample.Run(), Options{Group: true, Color: true})))
	golden.Check(t, "passing.txt", []byte(render(t, sample.Passing(), Options{})))
}

// TestFailuresOnlyByDefault: passes are listed only when Verbose is set;
// the final count is the last line either way.
func TestFailuresOnlyByDefault(t *testing.T) {
	quiet, verbose := render(t, sample.Run(), Options{}), render(t, sample.Run(), Options{Verbose: true})
	if strings.Contains(quiet, "PASS ") || strings.Count(verbose, "PASS ") != 3 {
		t.Errorf("PASS lines: %d by default, %d verbose; want 0 and 3", strings.Count(quiet, "PASS "), strings.Count(verbose, "PASS "))
	}
	for _, out := range []string{quiet, verbose} {
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if last := lines[len(lines)-1]; last != "DRP2 conformance: 6 of 9 fixtures failed (5 mismatches, 1 corpus error); 3 findings" {
			t.Errorf("last line = %q", last)
		}
	}
	if got := render(t, sample.Passing(), Options{}); strings.Count(got, "\n") > 12 || !strings.HasSuffix(got, "DRP2 conformance: all 3 fixtures passed\n") {
		t.Errorf("an all-green report:\n%s", got)
	}
}

// TestNameOnlyWhenNotTheFileName: the head line does not repeat the file
// name as the fixture name.
func TestNameOnlyWhenNotTheFileName(t *testing.T) {
	out := render(t, sample.Run(), Options{})
	if strings.Contains(out, "(destroy_twice)") || strings.Contains(out, `name "destroy_twice"`) {
		t.Errorf("the file name is repeated as the name:\n%s", out)
	}
	if !strings.Contains(out, "FAIL  fixtures/negative/destroy_twice.json:40:7 [negative]\n") {
		t.Errorf("no plain head line for destroy_twice:\n%s", out)
	}
	if !strings.Contains(out, "evil`name].json [negative] name \"</details>") {
		t.Errorf("a name unlike the file name is not shown:\n%s", out)
	}
}

// TestOnlyWhatDiffers: a failure shows the differing fields in one line,
// then the tool's reason and rule, then the fixture's labelled words.
func TestOnlyWhatDiffers(t *testing.T) {
	out := render(t, sample.Run(), Options{})
	want := "FAIL  fixtures/negative/destroy_twice.json:40:7 [negative]\n" +
		"      expected DRP2_ERR_INVALID_ID, got DRP2_ERR_INVALID_STATE\n" +
		// The rule once, though the validator's message ends with it.
		"      message: DestroyBuffer: buffer_id 12 names no live object\n" +
		"      rule: LIFETIMES.md Destruction rule 2\n" +
		"      fixture's reason: A destroyed id is no longer live.\n" +
		"      fixture's fix: Destroy each object once.\n"
	if !strings.Contains(out, want) {
		t.Errorf("report lacks\n%s\nin\n%s", want, out)
	}
	if !strings.HasPrefix(out, "ERROR fixtures/negative/truncated.json") {
		t.Errorf("the corpus error does not come first:\n%s", out)
	}
}

func TestColorOnlyWhenAsked(t *testing.T) {
	if out := render(t, sample.Run(), Options{Verbose: true}); strings.Contains(out, "\x1b") {
		t.Error("colour without Color")
	}
	out := render(t, sample.Run(), Options{Verbose: true, Color: true})
	for _, want := range []string{red + "FAIL " + reset, green + "PASS " + reset, red + "ERROR" + reset, yellow + "WARN " + reset} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured report lacks %q", want)
		}
	}
}

// TestGroups: with Group the passes, findings and run details are folded
// and each group is closed; the failures and the final count stay in view.
func TestGroups(t *testing.T) {
	out := render(t, sample.Run(), Options{Group: true, Verbose: true})
	depth := 0
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "::group::"):
			if depth++; depth > 1 {
				t.Fatalf("line %d: nested group", i+1)
			}
		case l == "::endgroup::":
			if depth--; depth < 0 {
				t.Fatalf("line %d: endgroup without group", i+1)
			}
		case strings.HasPrefix(l, "FAIL ") || strings.HasPrefix(l, "ERROR ") || strings.HasPrefix(l, "DRP2 conformance:"):
			if depth != 0 {
				t.Errorf("line %d is folded: %q", i+1, l)
			}
		case strings.HasPrefix(l, "PASS ") || strings.HasPrefix(l, "WARN ") || strings.HasPrefix(l, "Summary:"):
			if depth != 1 {
				t.Errorf("line %d is not folded: %q", i+1, l)
			}
		}
	}
	// Passes, findings, run details, the slowest fixtures and the
	// commands that reproduce.
	if depth != 0 || strings.Count(out, "::group::") != 5 {
		t.Errorf("groups: %d opened, depth %d at the end", strings.Count(out, "::group::"), depth)
	}
	for _, l := range strings.Split(render(t, sample.Run(), Options{Verbose: true}), "\n") {
		if strings.HasPrefix(l, "::") {
			t.Errorf("a group without Group: %q", l)
		}
	}
}

// TestHostileTextIsInert: fixture text cannot forge a line, start a
// workflow command, or send terminal escapes.
func TestHostileTextIsInert(t *testing.T) {
	for _, opts := range []Options{{Verbose: true}, {Verbose: true, Group: true, Color: true}} {
		for i, line := range strings.Split(render(t, sample.Run(), opts), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "::") && !strings.HasPrefix(line, "::group::") && line != "::endgroup::" {
				t.Errorf("line %d starts a workflow command: %q", i+1, line)
			}
			if strings.ContainsAny(line, "\r\x00") || !opts.Color && strings.Contains(line, "\x1b") {
				t.Errorf("line %d has a control character: %q", i+1, line)
			}
		}
	}
}

// TestNoLegacyWorkflowCommands (issue 12 item 2): the runner executes
// "##[command]" anywhere in a line; a fixture named "##[stop-commands]x"
// must not switch off the step's annotations.
func TestNoLegacyWorkflowCommands(t *testing.T) {
	run := sample.Run()
	for i := range run.Results {
		r := &run.Results[i]
		r.Name = "##[stop-commands]x"
		r.Path = "fixtures/##[set-output name=conclusion;]success.json"
		r.Actual.Message = "##[error]forged"
		r.Reason = "##[warning]forged"
	}
	run.Findings[0].Message = "##[group]x"
	run.CorpusRoot = "##[endgroup]"
	run.Summary = model.Summarize(len(run.Results), run.Results, run.Findings)
	for _, opts := range []Options{{}, {Verbose: true, Group: true, Color: true}} {
		if out := render(t, run, opts); strings.Contains(out, "##[") {
			t.Errorf("report carries ##[:\n%s", out)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"a\nb":             `a\nb`,
		"\x1b[31mred":      `\x1b[31mred`,
		"bad \xff byte":    `bad \xff byte`,
		"é and \u2028 sep": "é and \\u2028 sep",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestComparisonGolden: the run's report ends with the comparison; a known
// failure says so under its fixture.
func TestComparisonGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, bound.Run(sample.Compared()), Options{}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compared.txt", b.Bytes())
	for i, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") || strings.ContainsAny(line, "\r\x00\x1b") {
			t.Errorf("line %d is not inert: %q", i+1, line)
		}
	}
	b.Reset()
	if err := WriteComparison(&b, sample.Unavailable().Comparison); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "`fetch-depth: 2` on actions/checkout") {
		t.Errorf("unavailable comparison: %s", b.String())
	}
}

func TestEmptyRunSaysWhyInNeutralWords(t *testing.T) {
	for _, c := range []struct {
		discovered int
		want       string
	}{
		{0, "the corpus holds no fixture"},
		{7, "the filters matched none of the 7 fixtures discovered"},
	} {
		var b bytes.Buffer
		run := &model.Run{Summary: model.Summary{Discovered: c.discovered}}
		if err := Write(&b, run, Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) || strings.Contains(b.String(), "--name") {
			t.Errorf("discovered %d:\n%s", c.discovered, b.String())
		}
	}
}

// TestManifestBeforeVerdict: the manifest comparison is printed before the
// verdict line, which stays last; in a log it folds away only while it
// does not fail the run.
func TestManifestBeforeVerdict(t *testing.T) {
	for _, c := range []struct {
		name       string
		frozen     bool
		group      bool
		wantFolded bool
	}{
		{"terminal", true, false, false},
		{"log, failing", true, true, false},
		{"log, not failing", false, true, true},
	} {
		run := sample.Passing()
		run.Judgement = &model.Judgement{}
		run.Manifest = &model.ManifestCheck{Headline: "1 changed", Frozen: c.frozen, Violations: 1,
			Changes: []model.ManifestChange{{Kind: "changed", Path: "positive/a.json", Description: "commands", Violation: c.frozen}}}
		out := render(t, run, Options{Group: c.group})
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, "DRP2 conformance:") {
			t.Errorf("%s: the last line is %q, not the verdict", c.name, last)
		}
		change := strings.Index(out, "changed  positive/a.json: commands")
		if change < 0 || change > strings.Index(out, "Manifest: 1 changed") {
			t.Errorf("%s: the change is not listed before the manifest's headline:\n%s", c.name, out)
		}
		if folded := strings.Contains(out, "::group::Fixture manifest"); folded != c.wantFolded {
			t.Errorf("%s: folded %v, want %v:\n%s", c.name, folded, c.wantFolded, out)
		}
	}
}
