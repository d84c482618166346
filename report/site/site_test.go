package site

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

var (
	corpusA = strings.Repeat("a", 64)
	corpusB = strings.Repeat("b", 64)
)

// history is three reports of the sample's implementations over one
// corpus (the native runtime passes a fixture it failed, then
// fails it again: a flip each way), a plain run of the built-in
// validator at the same time as the second report, and one report of
// another corpus. The hostile implementation's name, version and adapter
// try to escape every sink.
func sampleReports() []Report {
	day := func(n int) time.Time { return sample.Started.Add(time.Duration(n) * 24 * time.Hour) }
	withImpls := func(n int, flip bool) *model.Run {
		run := sample.WithImplementations()
		run.Started, run.CorpusDigest, run.Commit, run.Repository = day(n), corpusA, "0123456789abcdef", "owner/runtime"
		// The latest report names its workflow run; the first names one
		// on another host, which no page links.
		switch n {
		case 0:
			run.RunURL = "https://evil.example/owner/runtime/actions/runs/1"
		case 2:
			run.RunURL = "https://github.com/owner/runtime/actions/runs/1234/attempts/2"
		}
		for i := range run.Implementations {
			im := &run.Implementations[i]
			if im.Name == sample.Hostile {
				im.Adapter = &model.GPUAdapter{Vendor: sample.Hostile, Device: sample.Hostile, Platform: "node <b>20</b>"}
			}
			if im.Name == "native-vk" && flip {
				for j := range im.Results {
					if im.Results[j].RelPath == "positive/texture_upload.json" {
						im.Results[j].Passed = !im.Results[j].Passed
						im.Results[j].Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE"}
					}
				}
				im.Summary = model.Summarize(len(im.Results), im.Results, nil)
			}
		}
		return run
	}
	plain := sample.Run()
	plain.Started, plain.CorpusDigest = day(1), corpusA
	other := sample.Passing()
	other.Started, other.CorpusDigest = day(2), corpusB
	return []Report{
		{Source: "reports/one.json", Run: withImpls(0, false)},
		{Source: "reports/two.json", Run: withImpls(1, true)},
		{Source: "reports/plain.json", Run: plain},
		{Source: "reports/three.json", Run: withImpls(2, false)},
		{Source: "reports/other-corpus.json", Run: other},
	}
}

func build(reports []Report) []File {
	return Build(reports, Options{Compare: baseline.Compare, Problems: []string{"reports/bad.json: not a drp2-fixtures JSON report: line 3: " + sample.Hostile}})
}

func find(files []File, prefix string) *File {
	for i := range files {
		if strings.HasPrefix(files[i].Path, prefix) {
			return &files[i]
		}
	}
	return nil
}

// TestGolden: the index, the native runtime's page, a fixture's page, its
// badges and the data index, as a txtar archive.
func TestGolden(t *testing.T) {
	files := build(sampleReports())
	var b bytes.Buffer
	for _, prefix := range []string{"index.html", "impl/native-vk-", "fixture/positive-texture-upload-json-", "badges/native-vk-", "data/index.json"} {
		n := 0
		for _, f := range files {
			if strings.HasPrefix(f.Path, prefix) {
				b.WriteString("-- " + f.Path + " --\n")
				b.Write(f.Data)
				n++
			}
		}
		if n == 0 {
			t.Fatalf("no file %s*", prefix)
		}
	}
	golden.Check(t, "site.txtar", b.Bytes())
}

// TestDeterministic: the same reports in any order give the same files,
// byte for byte.
func TestDeterministic(t *testing.T) {
	want := build(sampleReports())
	for seed := int64(1); seed <= 3; seed++ {
		reports := sampleReports()
		rand.New(rand.NewSource(seed)).Shuffle(len(reports), func(i, j int) { reports[i], reports[j] = reports[j], reports[i] })
		got := build(reports)
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d files, want %d", seed, len(got), len(want))
		}
		for i := range got {
			if got[i].Path != want[i].Path || !bytes.Equal(got[i].Data, want[i].Data) {
				t.Fatalf("seed %d: %s differs", seed, got[i].Path)
			}
		}
	}
}

// TestHostileTextIsEscaped: no file carries the hostile text's markup
// as markup; every page and badge parses as XML-ish markup without a
// script element, every JSON file parses and keeps the text as data, and
// no file name carries any of it.
func TestHostileTextIsEscaped(t *testing.T) {
	files := build(sampleReports())
	for _, f := range files {
		if strings.ContainsAny(f.Path, "<>`&\"' \\") || strings.Contains(f.Path, "..") {
			t.Errorf("file name %q", f.Path)
		}
		// The grid's and the diff index's one script is the package's own
		// (TestScriptIsInert); no other may appear.
		s := strings.Replace(string(f.Data), "<script>"+findScript+"</script>", "", 1)
		switch {
		case strings.HasSuffix(f.Path, ".json"):
			var v any
			if err := json.Unmarshal(f.Data, &v); err != nil {
				t.Errorf("%s: %v", f.Path, err)
			}
			if strings.Contains(s, "<script") {
				t.Errorf("%s: unescaped <script", f.Path)
			}
		default:
			if strings.Contains(s, "<script") || strings.Contains(s, "</details>") || strings.Contains(s, "<b>") || strings.Contains(s, "\x1b") || strings.Contains(s, "\x00") {
				t.Errorf("%s carries the hostile text as markup or control characters", f.Path)
			}
			if strings.HasSuffix(f.Path, ".svg") {
				checkXML(t, f)
			}
		}
	}
	idx := find(files, "index.html")
	if !strings.Contains(string(idx.Data), "&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the index does not show the hostile name as text")
	}
}

func checkXML(t *testing.T, f File) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(f.Data))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s: %v", f.Path, err)
			return
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "script" {
			t.Errorf("%s: a script element", f.Path)
		}
	}
}

// TestHistory: the series of the native runtime has three reports, one
// fixture that flipped twice, and the difference between its last two
// reports in diff's words; the built-in validator's run on the other
// corpus continues its series, the index lists both corpus versions, and
// the reports of the same time are noted and ordered by file name.
func TestHistory(t *testing.T) {
	all := group(sampleReports())
	var native *series
	for _, se := range all {
		if se.name == "native-vk" {
			native = se
		}
	}
	if native == nil || len(native.entries) != 3 {
		t.Fatalf("native-vk series: %+v", native)
	}
	h := historyOf(native)
	if got := h.flaky(); len(got) != 1 || got[0] != "positive/texture_upload.json" || h.flips[got[0]] != 2 {
		t.Errorf("flaky %v %v", got, h.flips)
	}
	d := difference(native, baseline.Compare)
	if d == nil || d.c.Delta().Regressed != 1 || d.base.source != "reports/two.json" {
		t.Errorf("difference from %s: %+v", d.base.source, d.c.Delta())
	}
	cs := corpora(all)
	// Both corpora's latest reports start on the same day: the digest
	// orders them.
	if len(cs) != 2 || cs[0].digest != corpusA || cs[1].digest != corpusB || len(cs[1].series) != 1 || cs[1].series[0].name != BuiltIn || len(cs[1].series[0].entries) != 2 {
		t.Fatalf("corpora: %d", len(cs))
	}
	files := build(sampleReports())
	idx := string(find(files, "index.html").Data)
	if !strings.Contains(idx, `<code class="digest" title="sha256 `+corpusB+`">bbbbbbbbbbbb</code>`) || !strings.Contains(idx, `<code class="digest" title="sha256 `+corpusA+`">aaaaaaaaaaaa</code>`) {
		t.Errorf("the index does not list the two corpus versions")
	}
	if !strings.Contains(idx, "reports/bad.json: not a drp2-fixtures JSON report") {
		t.Errorf("the index does not list the report left out")
	}
}

// TestSameTime: two reports of one series with the same start are
// ordered by file name, whatever the order given, and noted.
func TestSameTime(t *testing.T) {
	a, b := sample.Run(), sample.Run()
	b.Results[0].Passed = !b.Results[0].Passed
	for _, order := range [][]Report{{{"z.json", a}, {"y.json", b}}, {{"y.json", b}, {"z.json", a}}} {
		all := group(order)
		if len(all) != 1 || all[0].entries[0].source != "y.json" || !all[0].entries[1].sameTime {
			t.Fatalf("same time: %+v", all[0].entries[0])
		}
		if notes := sameTimeNotes(all); len(notes) != 1 || !strings.Contains(notes[0], "y.json and z.json have the same start") {
			t.Errorf("notes %q", notes)
		}
	}
}

// TestSeriesByRepository: reports of the same implementation, device and
// corpus from another repository, or from none recorded, are series of
// their own, whatever their dates; the later one never becomes the
// victim's latest report or badge.
func TestSeriesByRepository(t *testing.T) {
	at := func(hours int, repository string) *model.Run {
		run := sample.Passing()
		run.Started, run.CorpusDigest, run.Repository = sample.Started.Add(time.Duration(hours)*time.Hour), corpusA, repository
		return run
	}
	all := group([]Report{{"victim.json", at(0, "victim/runtime")}, {"attacker.json", at(2, "attacker/fork")}, {"anonymous.json", at(1, "")}})
	if len(all) != 3 {
		t.Fatalf("%d series, want 3", len(all))
	}
	slugs := map[string]bool{}
	for _, se := range all {
		if len(se.entries) != 1 {
			t.Errorf("the series of %s holds %d reports", se.latest().source, len(se.entries))
		}
		slugs[se.slug] = true
	}
	if len(slugs) != 3 {
		t.Errorf("the series share a file name: %v", slugs)
	}
}

// TestPending: a required implementation, or device, that no report meets
// is pending on the index and in data/index.json, in the order required;
// one met is not named, and with none pending neither page says so.
func TestPending(t *testing.T) {
	var require []model.Requirement
	for _, s := range []string{"native-vk", "native-vk@*NVIDIA*", "drp2-fixtures", "android-gles@*adreno*"} {
		r, err := model.ParseRequirement(s)
		if err != nil {
			t.Fatal(err)
		}
		require = append(require, r)
	}
	b := NewBuilder(Options{Require: require})
	for _, r := range sampleReports() {
		b.Add(r)
	}
	want := []string{"native-vk on a device matching *NVIDIA*", "android-gles on a device matching *adreno*"}
	if got := b.Pending(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("pending %q, want %q", got, want)
	}
	files := b.Files(nil)
	index, data := string(find(files, "index.html").Data), string(find(files, "data/index.json").Data)
	for _, w := range want {
		if !strings.Contains(index, "<li>"+w+": pending</li>") || !strings.Contains(data, `"`+w+`"`) {
			t.Errorf("%q is not pending on the index or in its data", w)
		}
	}
	if !strings.Contains(data, `"pending":[`) {
		t.Errorf("data/index.json has no pending list:\n%s", data)
	}
	files = build(sampleReports())
	if strings.Contains(string(find(files, "index.html").Data), "Pending") || strings.Contains(string(find(files, "data/index.json").Data), "pending") {
		t.Error("a site that requires nothing says something is pending")
	}
}
