package manifest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	mdreport "github.com/drp2/drp2-fixtures/report/markdown"
)

// synthetic is an encoded manifest of n fixtures.
func synthetic(tb testing.TB, n int) []byte {
	tb.Helper()
	m := &Manifest{Format: Format, DRP2Version: "2.0", Fixtures: make([]Fixture, n)}
	for i := range m.Fixtures {
		m.Fixtures[i] = Fixture{Path: fmt.Sprintf("positive/f_%06d.json", i), Name: fmt.Sprintf("f_%06d — ünïcode", i), Class: "positive",
			Expected: map[string]any{"outcome": "success"}, SHA256: Sums{File: fmt.Sprintf("%064x", i)}}
	}
	var b bytes.Buffer
	if err := Encode(&b, m); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// Each entry's span is where the entry lies, as jsonpos finds it by its
// pointer.
func TestDecodeSpans(t *testing.T) {
	data := synthetic(t, 30)
	m, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range m.Fixtures {
		start, end, ok := jsonpos.Find(data, fmt.Sprintf("/fixtures/%d", i))
		if !ok {
			t.Fatalf("no entry %d", i)
		}
		if want := model.Span(jsonpos.Span(data, start, end)); f.span == nil || *f.span != want {
			t.Errorf("entry %d: span %v, want %v", i, f.span, want)
		}
	}
}

// Reading a manifest is linear in its fixtures: ten times the fixtures
// take far less than a hundred times the time (a quadratic reading took a
// minute at 8,000 fixtures). The best of three runs of each size counts,
// in CPU time, which other work on the machine does not inflate.
func TestDecodeIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short")
	}
	best := func(data []byte) time.Duration {
		var min time.Duration
		for range 3 {
			var err error
			d := testkit.CPUTime(func() { _, err = Decode(data) })
			if err != nil {
				t.Fatal(err)
			}
			if min == 0 || d < min {
				min = d
			}
		}
		return min
	}
	small, large := synthetic(t, 5000), synthetic(t, 50000)
	ts, tl := best(small), best(large)
	t.Logf("5,000 fixtures: %v; 50,000 fixtures: %v", ts, tl)
	if tl > 40*ts {
		t.Errorf("10 times the fixtures took %.0f times the time (%v, %v)", float64(tl)/float64(ts), ts, tl)
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{8000, 50000} {
		data := synthetic(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A frozen manifest whose fixtures are all gone lists what fits in the
// section's budget, violations first, and counts the rest: the job summary
// stays under GitHub's limit.
func TestMarkdownHeldToItsBudget(t *testing.T) {
	rec, err := Decode(synthetic(t, 50000))
	if err != nil {
		t.Fatal(err)
	}
	rec.Frozen = true
	cur := &Manifest{Format: Format, DRP2Version: "2.0", Schemas: rec.Schemas}
	cmp := Compare(rec, cur)
	cmp.Path = "manifest.json"
	if cmp.Violations != 50000 {
		t.Fatalf("%d violations", cmp.Violations)
	}
	var b bytes.Buffer
	if err := mdreport.Manifest(&b, cmp); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if b.Len() > mdreport.MaxManifestBytes {
		t.Errorf("section is %d bytes, over %d", b.Len(), mdreport.MaxManifestBytes)
	}
	if !strings.Contains(md, "of them breaking the freeze); run `drp2-fixtures manifest check`") || !strings.Contains(md, `positive\/f\_000000\.json`) {
		t.Errorf("section:\n%s", md[max(0, len(md)-500):])
	}
}
