package baseline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

// FuzzReadReport: any bytes give a run or an error, never a panic, and a
// run read back compares with itself as no change.
func FuzzReadReport(f *testing.F) {
	run := &model.Run{Results: []model.Result{
		{Path: "fixtures/positive/a.json", RelPath: "positive/a.json", Name: "a", Passed: true, Class: model.ClassPositive,
			Digest: model.Digest{File: "f", Commands: "c", Expected: "e"}},
		{Path: "fixtures/negative/b.json", RelPath: "negative/b.json", Name: "b", Class: model.ClassNegative,
			Actual: model.Actual{Outcome: model.CorpusError}},
	}}
	var b bytes.Buffer
	if err := jsonout.Write(&b, run); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte(`{"results":[]}`))
	f.Add([]byte(`{"results":[{"corpus_path":"x","digest":null,"class":"positive"}]}`))
	f.Add([]byte("{\n\"results\": [1}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		run, err := jsonout.ReadReport(data)
		if err != nil {
			return
		}
		c := Compare(run, run, "self")
		for _, ch := range c.Changes {
			if ch.Transition != model.StillFailing {
				t.Fatalf("a run compared with itself has %s %s", ch.Transition, ch.RelPath)
			}
		}
		if c.Delta().Regressed+c.Delta().Fixed+c.Delta().Added()+c.Delta().Removed != 0 {
			t.Fatalf("delta %+v", c.Delta())
		}
	})
}

// FuzzCompare: renames and duplicates in any mix keep every head fixture
// counted once and every base fixture matched at most once.
func FuzzCompare(f *testing.F) {
	f.Add("a b c", "a b d", "x y x")
	f.Add("a a", "b b", "s s")
	f.Fuzz(func(t *testing.T, basePaths, headPaths, sums string) {
		mk := func(paths string) *model.Run {
			r := &model.Run{}
			s := strings.Fields(sums)
			for i, p := range strings.Fields(paths) {
				d := model.Digest{}
				if len(s) > 0 {
					d.File = s[i%len(s)]
				}
				r.Results = append(r.Results, model.Result{RelPath: p, Passed: i%2 == 0, Digest: d})
			}
			return r
		}
		base, head := mk(basePaths), mk(headPaths)
		c := Compare(base, head, "b")
		seen := map[string]bool{}
		from := map[string]bool{}
		for _, ch := range c.Changes {
			if ch.Transition == model.Removed {
				continue
			}
			if seen[ch.RelPath] {
				t.Fatalf("%s listed twice", ch.RelPath)
			}
			seen[ch.RelPath] = true
			if ch.From != "" {
				if from[ch.From] {
					t.Fatalf("%s renamed twice", ch.From)
				}
				from[ch.From] = true
			}
		}
	})
}
