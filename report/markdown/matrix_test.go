package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

var matrixOpts = Options{ServerURL: "https://github.com", Repository: "acme/runtime", SHA: "0123456789abcdef0123456789abcdef01234567", CorpusKey: "fixtures"}

func TestMatrixGolden(t *testing.T) {
	run := sample.WithImplementations()
	golden.Check(t, "matrix-comment.md", []byte(ImplementationsComment(run, matrixOpts)))
	title, summary := ImplementationsCheckOutput(run, Options{})
	golden.Check(t, "matrix-check.md", []byte(title+"\n---\n"+summary))
	all := sample.WithImplementations()
	for i := range all.Implementations[1:] {
		im := &all.Implementations[i+1]
		for j := range im.Results {
			im.Results[j].Passed = true
			im.Results[j].Actual = model.Actual{Outcome: model.Outcome(im.Results[j].Expected.Outcome)}
		}
		for k := range im.Level2 {
			im.Level2[k] = true
		}
		im.Summary = model.Summarize(all.Summary.Discovered, im.Results, nil)
	}
	all.Implementations = all.Implementations[1:]
	golden.Check(t, "matrix-passing.md", []byte(Matrix(all, Options{}, func(string) bool { return true })))
	golden.Check(t, "matrix-webgpu.md", []byte(ImplementationsComment(sample.WithWebGPU(), matrixOpts)))
	// Every implementation that reported passes, but one the run requires
	// on a GPU did not report from it: the comment says so first, and its
	// icon is the verdict's, not the counts'.
	all.Judgement = &model.Judgement{Failed: true, Reasons: []model.Reason{
		{Kind: model.ReasonRequiredAbsent, Subject: "native-runtime", Detail: "*NVIDIA*", Devices: []string{"Google SwiftShader Device (Subzero)"}},
		{Kind: model.ReasonUnreported, Subject: "native-runtime 1.0", Count: 2, Of: 6},
	}}
	golden.Check(t, "matrix-required-absent.md", []byte(ImplementationsComment(all, matrixOpts)))
}

// TestMatrixWebGPU: phases not performed are not claimed (neither passed
// nor failed), the adapter and the runtime's own message are shown, and
// the Level 3 preview names the first differing byte.
func TestMatrixWebGPU(t *testing.T) {
	s := Matrix(sample.WithWebGPU(), Options{}, func(string) bool { return true })
	for _, want := range []string{
		`<sub>google swiftshader\, SwiftShader driver 5\.0\.0 \(node 20\.20\.2\, dawn \(npm webgpu 0\.6\.2\)\)</sub>`,
		"| 6 of 6; 2 not claimed<br><sub>performs semantic\\, capability</sub> |",
		"| 5 of 6 (1 failed); 2 not claimed",
		"| ➖ |",
		"While calling \\[Queue\\]\\.Submit",
		"### Level 3 preview: readback bytes",
		"2 readbacks compared: 1 agree, 1 differ",
		"first differing byte 3 (0xff, not 0x00) · fixture data: not comparable (not base64, or over 1 MiB) |",
		"✅ fixture data, 2, 4: 4 bytes",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	// A not-claimed fixture is no row of the failing matrix by itself.
	if strings.Contains(s, "| <code>negative\\_schema/missing\\_cmd\\.json</code> | ✅ | ✅ | ❌") {
		t.Errorf("a not-claimed fixture counted as a failure:\n%s", s)
	}
}

// TestMatrixBestFirst: columns and rows follow the ranking, not the order
// the implementations were given in.
func TestMatrixBestFirst(t *testing.T) {
	s := Matrix(sample.WithImplementations(), Options{}, func(string) bool { return true })
	native := strings.Index(s, "**native\\-vk 2\\.0\\.1**")
	broken := strings.Index(s, "**\\.\\/no\\-such\\-runtime \\-\\-adapter**")
	if native < 0 || broken < 0 || native > broken {
		t.Fatalf("native-vk (%d) should come before the broken one (%d):\n%s", native, broken, s)
	}
	for _, want := range []string{"| ✅ | ❌ | — |", "1 of 2 mirror the requests", "not claimed", "It could not be used", "data holds 12 bytes"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestMatrixHostileTextIsInert(t *testing.T) {
	s := ImplementationsComment(sample.WithImplementations(), matrixOpts)
	// Fenced code blocks (the stderr tails) show their text literally,
	// which is safe; everything else must carry no live markup.
	var outside []string
	fenced := false
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			outside = append(outside, line)
		}
	}
	s = strings.Join(outside, "\n")
	for _, bad := range []string{"<script", "@someone", "\x00", "\x1b", "</details><script"} {
		if strings.Contains(s, bad) {
			t.Errorf("the comment carries %q", bad)
		}
	}
	if strings.Count(s, "<details>") != strings.Count(s, "</details>") {
		t.Error("unbalanced <details>")
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "::") {
			t.Errorf("a line starts a workflow command: %q", line)
		}
	}
}

// TestMatrixSizeCaps: a huge run with many implementations still fits the
// comment and the check output, and says that it was shortened.
func TestMatrixSizeCaps(t *testing.T) {
	run := sample.ManyImplementations(3000, 12)
	c := ImplementationsComment(run, matrixOpts)
	if n := utf8.RuneCountInString(c); n > escape.CommentChars {
		t.Errorf("comment has %d characters", n)
	}
	if !strings.Contains(c, "more fixtures; the JSON and JUnit reports list every one") {
		t.Error("the comment does not say that rows were left out")
	}
	_, summary := ImplementationsCheckOutput(run, matrixOpts)
	if len(summary) > escape.CheckOutputBytes {
		t.Errorf("check summary has %d bytes", len(summary))
	}
	tiny := Matrix(run, matrixOpts, func(s string) bool { return len(s) <= 2000 })
	if len(tiny) > 2000 || !strings.Contains(tiny, "cut to fit") || strings.Count(tiny, "<details>") != strings.Count(tiny, "</details>") {
		t.Errorf("a 2000-byte matrix: %d bytes\n%s", len(tiny), tiny)
	}
}

func TestMatrixNone(t *testing.T) {
	if s := Matrix(sample.Run(), Options{}, func(string) bool { return true }); s != "" {
		t.Errorf("a run without implementations gave %q", s)
	}
}
