package expect

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// devices are the four devices of the synthetic history.
var devices = []model.GPUAdapter{
	{Vendor: "Google", Architecture: "swiftshader", Device: "SwiftShader Device (Subzero)", Driver: "SwiftShader driver 5.0.0", Platform: "node 22, dawn"},
	{Vendor: "NVIDIA", Architecture: "ampere", Device: "GeForce RTX 3080", Driver: "NVIDIA 550.54", Platform: "chrome 130, linux"},
	{Vendor: "AMD", Architecture: "rdna3", Device: "Radeon RX 7900 XTX", Driver: "Mesa 24.1", Platform: "chrome 130, linux"},
	{Vendor: "Intel", Architecture: "xe-hpg", Device: "Arc A770", Driver: "Intel 31.0.101", Platform: "chrome 130, windows"},
}

// attemptsOf is what each attempt of a run gives: true passed.
type attemptsOf func(day, run, dev int) []bool

// behaviours are the synthetic fixtures that do not simply pass: what
// each attempt of a run gives, with a retry after an unexcused failure
// (a flake fails and then passes on its retry).
var behaviours = map[string]attemptsOf{
	// Fails on SwiftShader only, always.
	"positive/swiftshader_only.json": func(_, _, dev int) []bool { return []bool{dev != 0} },
	// Fails everywhere.
	"positive/everywhere.json": func(_, _, _ int) []bool { return []bool{false, false} },
	// Flaky on NVIDIA: every third run fails at first, and passes on the
	// retry, or fails both.
	"positive/nvidia_flake.json": func(day, run, dev int) []bool {
		switch {
		case dev != 1 || (day+run)%3 != 0:
			return []bool{true}
		case day%2 == 0:
			return []bool{false, false}
		}
		return []bool{false, true}
	},
	// Flaky on AMD until day 8, fixed since: every other run fails once.
	"positive/fixed_flake.json": func(day, run, dev int) []bool {
		if dev == 2 && day < 8 && run%2 == 0 {
			return []bool{false, true}
		}
		return []bool{true}
	},
}

// syntheticRuns are 200 reports over 4 devices and 20 days: ten a day,
// each device in turn, 24 fixtures each, the reports of a day out of
// their order.
func syntheticRuns() []Source {
	var out []Source
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for day := range 20 {
		for i := range 10 {
			dev := i % 4
			run := &model.Run{Started: start.Add(time.Duration(day)*24*time.Hour + time.Duration(i)*time.Hour)}
			a := devices[dev]
			im := model.Implementation{Name: "rt", Version: "1.0", Adapter: &a}
			for f := range 20 {
				im.Results = append(im.Results, synthetic(fmt.Sprintf("positive/f%02d.json", f), []bool{true}))
			}
			for _, p := range sortedKeys(behaviours) {
				im.Results = append(im.Results, synthetic(p, behaviours[p](day, i/4, dev)))
			}
			run.Implementations = []model.Implementation{im}
			// Reversed names: the roll orders by start, not by name.
			out = append([]Source{{Name: fmt.Sprintf("r%03d.json", 199-len(out)), Run: run}}, out...)
		}
	}
	return out
}

func sortedKeys(m map[string]attemptsOf) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// synthetic is the result of a fixture whose attempts gave attempts.
func synthetic(p string, attempts []bool) model.Result {
	r := model.Result{Path: "fixtures/" + p, RelPath: p, Class: model.ClassPositive,
		Digest: model.Digest{File: "f" + p, Commands: "c" + p, Expected: "e" + p}}
	for _, ok := range attempts {
		a := model.Actual{Outcome: model.Success}
		if !ok {
			a = model.Actual{Outcome: model.Error, Code: "x"}
		}
		r.Attempts = append(r.Attempts, a)
	}
	r.Actual = r.Attempts[len(r.Attempts)-1]
	r.Passed = attempts[len(attempts)-1]
	if len(attempts) == 1 {
		r.Attempts = nil
	}
	return r
}

// TestRollConverges: the synthetic history, rolled day by day from an
// empty list, converges to a list whose every entry covers only devices
// that failed its fixture; the flake fixed on day 8 has an entry while it
// flakes and none once it passed RetireAfter times; and replaying the 200
// runs against the list gives no red run and no unexcused failure.
func TestRollConverges(t *testing.T) {
	sources := syntheticRuns()
	ordered := sortSources(sources)
	var list []byte
	sawFixedFlake := false
	for day := 1; day <= 20; day++ {
		n := day * 10
		rolled := mustRoll(t, list, ordered[:n], RollOptions{})
		list = rolled.Out
		if day == 6 {
			sawFixedFlake = strings.Contains(string(list), "positive/fixed_flake.json flaky")
		}
	}
	if !sawFixedFlake {
		t.Errorf("no flaky entry for the flake while it flaked")
	}
	want := "rt positive/everywhere.json fail # new\n" +
		`rt@"*NVIDIA*ampere*GeForce RTX 3080*" positive/nvidia_flake.json flaky # new` + "\n" +
		`rt@"*Google*swiftshader*SwiftShader Device (Subzero)*" positive/swiftshader_only.json fail # new` + "\n"
	if string(list) != want {
		t.Fatalf("converged to:\n%s\nwant:\n%s", list, want)
	}
	// Rolled again from nothing over everything: the same list.
	if again := mustRoll(t, nil, sources, RollOptions{}); string(again.Out) != want {
		t.Errorf("one roll over every report gives:\n%s", again.Out)
	}
	l, err := Parse(strings.NewReader(string(list)), "rt.txt")
	if err != nil || len(l.Problems) > 0 {
		t.Fatal(err, l.Problems)
	}
	checkNoWiderThanFailures(t, l, sources)
	red := 0
	for _, s := range sources {
		l.Apply(s.Run)
		for i := range s.Run.Implementations {
			for _, r := range s.Run.Implementations[i].Results {
				if k := r.Kind(); k == model.KindFailed || k == model.KindHarnessError {
					red++
					t.Errorf("%s: %s fails unexcused on %s", s.Name, r.RelPath, s.Run.Implementations[i].Adapter.Device)
				}
			}
		}
	}
	if red > 0 {
		t.Errorf("%d unexcused failures on replay", red)
	}
}

// checkNoWiderThanFailures fails for an entry that applies to a device on
// which its fixture never failed.
func checkNoWiderThanFailures(t *testing.T, l *List, sources []Source) {
	t.Helper()
	failed := map[string]bool{}
	for _, s := range sources {
		im := &s.Run.Implementations[0]
		for _, r := range im.Results {
			if !r.Passed || r.Retried() {
				failed[r.RelPath+"|"+im.Adapter.Device] = true
			}
		}
	}
	for i := range devices {
		im := &model.Implementation{Name: "rt", Version: "1.0", Adapter: &devices[i]}
		for j := range l.Entries {
			e := &l.Entries[j]
			if e.applies(TargetOf(im)) && !failed[e.Path+"|"+devices[i].Device] {
				t.Errorf("%s covers %s, on which %s never failed", e.Where(), devices[i].Device, e.Path)
			}
		}
	}
}

// TestRollRetiresAfterPasses: a fail entry stays after one pass and after
// RetireAfter-1, and goes after RetireAfter passes in a row on every
// device it covers; a device that did not report keeps it; KEEP blocks
// stay whatever passes; and an entry without a bug link is named.
func TestRollRetiresAfterPasses(t *testing.T) {
	list := "# rt\nrt positive/a.json fail # bug 1\n# KEEP\nrt positive/b.json fail # https://bugs.example/2\n# KEEP END\n" +
		"rt@*Intel* positive/c.json fail # https://bugs.example/3\n"
	run := func(day int, dev int, passed bool) Source {
		a := devices[dev]
		im := model.Implementation{Name: "rt", Version: "1.0", Adapter: &a}
		for _, p := range []string{"positive/a.json", "positive/b.json"} {
			im.Results = append(im.Results, synthetic(p, []bool{passed}))
		}
		return Source{Name: fmt.Sprint(day, dev), Run: &model.Run{Started: time.Unix(int64(day*100+dev), 0),
			Implementations: []model.Implementation{im}}}
	}
	var sources []Source
	for day := range 3 {
		sources = append(sources, run(day, 0, true), run(day, 1, true))
		got := mustRoll(t, []byte(list), sources, RollOptions{RetireAfter: 3})
		if retired := !strings.Contains(string(got.Out), "positive/a.json"); retired != (day == 2) {
			t.Errorf("after %d passes on each device: retired %v\n%s", day+1, retired, got.Out)
		}
		if !strings.Contains(string(got.Out), "positive/b.json") || !strings.Contains(string(got.Out), "positive/c.json") {
			t.Errorf("a kept entry or an entry no device reached was retired:\n%s", got.Out)
		}
	}
	sources = append(sources, run(3, 1, false))
	got := mustRoll(t, []byte(list), sources, RollOptions{RetireAfter: 3, BugPattern: regexp.MustCompile(`https://bugs\.example/\d+`)})
	// The failure since keeps the entry, flaky now: the fixture both
	// passed and failed there.
	if !strings.Contains(string(got.Out), "rt positive/a.json flaky # bug 1") {
		t.Errorf("a failure since kept its entry retired, or fail:\n%s", got.Out)
	}
	want := "rt.txt:2: expectation flaky for positive/a.json has no bug link matching https://bugs\\.example/\\d+ in its reason"
	if got.Unlinked != 1 || strings.Join(got.Problems, "\n") != want {
		t.Errorf("problems %d %q, want %q", got.Unlinked, got.Problems, want)
	}
}

// BenchmarkRoll: one roll over the 200 synthetic reports.
func BenchmarkRoll(b *testing.B) {
	sources := syntheticRuns()
	b.ResetTimer()
	for range b.N {
		if _, err := Roll(nil, "rt.txt", sources, RollOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRollMakesFlaky: a fail entry whose fixture both failed and passed at
// one body and version on a device it decides is written flaky, its
// device, conditions and reason kept; a failure and a pass at two
// different bodies (the fixture was edited) is no flake; a KEEP entry is
// never rewritten.
func TestRollMakesFlaky(t *testing.T) {
	list := `rt@"*NVIDIA*" positive/a.json fail platform=*linux* owner=ana # bug 9` + "\n" +
		"rt positive/b.json fail # bug 10\n# KEEP\nrt positive/c.json fail # bug 11\n# KEEP END\n"
	var sources []Source
	for i, passed := range []bool{false, true, false} {
		a := devices[1]
		im := model.Implementation{Name: "rt", Version: "1.0", Adapter: &a}
		for _, p := range []string{"positive/a.json", "positive/b.json", "positive/c.json"} {
			r := synthetic(p, []bool{passed})
			if p == "positive/b.json" {
				r.Digest.Commands += fmt.Sprint(i) // edited between runs
			}
			im.Results = append(im.Results, r)
		}
		sources = append(sources, Source{Name: fmt.Sprint(i), Run: &model.Run{Started: time.Unix(int64(i), 0),
			Implementations: []model.Implementation{im}}})
	}
	got := mustRoll(t, []byte(list), sources, RollOptions{})
	want := `rt@*NVIDIA* positive/a.json flaky platform=*linux* owner=ana # bug 9` + "\n" +
		"rt positive/b.json fail # bug 10\n# KEEP\nrt positive/c.json fail # bug 11\n# KEEP END\n"
	if string(got.Out) != want || got.Flaky != 1 {
		t.Errorf("rolled (%d flaky):\n%s\nwant:\n%s", got.Flaky, got.Out, want)
	}
}

func mustRoll(t *testing.T, list []byte, sources []Source, o RollOptions) *Rolled {
	t.Helper()
	rolled, err := Roll(list, "rt.txt", sources, o)
	if err != nil {
		t.Fatal(err)
	}
	return rolled
}

// TestRollHostileReport: what a report says is data: a name and a device
// with a line break, quotes and '#', and a path with a line break, are
// written quoted and read back as one entry each; a path that is not
// corpus-relative, and a name too long for a line, are left out.
func TestRollHostileReport(t *testing.T) {
	a := &model.GPUAdapter{Vendor: "Evil\n# KEEP END", Device: `"quoted" @ #x`}
	run := &model.Run{Implementations: []model.Implementation{
		{Name: "rt\nrt negative/x.json skip", Version: "1", Adapter: a, Results: []model.Result{
			synthetic("positive/a\nb.json", []bool{false}),
			synthetic("../outside.json", []bool{false}),
			synthetic("/abs.json", []bool{false}),
		}},
		{Name: strings.Repeat("n", maxLine), Results: []model.Result{synthetic("positive/a.json", []bool{false})}},
	}}
	got := mustRoll(t, nil, []Source{{Name: "evil.json", Run: run}}, RollOptions{})
	l, err := Parse(strings.NewReader(string(got.Out)), "rt.txt")
	if err != nil || len(l.Problems) > 0 || len(l.Entries) != 1 || len(got.Problems) > 0 {
		t.Fatalf("%v %v %v\n%s", err, l.Problems, got.Problems, got.Out)
	}
	if e := l.Entries[0]; e.Implementation != "rt\nrt negative/x.json skip" || e.Path != "positive/a\nb.json" || !model.Glob(e.Device, a.Description()) {
		t.Errorf("read back as %+v", e)
	}
}
