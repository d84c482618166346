package explain

import (
	"fmt"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// TestSlowest: the ten slowest fixtures of the validator and of each
// implementation, slowest first and ties by path; fixtures that took no
// time are left out, and a run whose clock stood still has no table.
func TestSlowest(t *testing.T) {
	run := &model.Run{Duration: time.Second}
	for i := range 15 {
		run.Results = append(run.Results, model.Result{RelPath: fmt.Sprintf("positive/%02d.json", i), Duration: time.Duration(i%5) * time.Millisecond})
	}
	run.Implementations = []model.Implementation{{Name: "rt", Version: "1.0", Results: []model.Result{{RelPath: "a.json"}}},
		{Name: "gpu", Version: "2", Duration: 3 * time.Second, Results: []model.Result{{RelPath: "b.json", Duration: 2 * time.Second}, {RelPath: "a.json", Duration: 2 * time.Second}}}}
	slow := Slowest(run, SlowestShown)
	if len(slow) != 2 || slow[0].Who != "drp2-fixtures (the built-in validator)" || slow[1].Who != "gpu 2" {
		t.Fatalf("slowest of %v", slow)
	}
	var got []string
	for _, r := range slow[0].Results {
		got = append(got, fmt.Sprintf("%s %v", r.RelPath, r.Duration))
	}
	want := []string{"positive/04.json 4ms", "positive/09.json 4ms", "positive/14.json 4ms", "positive/03.json 3ms", "positive/08.json 3ms",
		"positive/13.json 3ms", "positive/02.json 2ms", "positive/07.json 2ms", "positive/12.json 2ms", "positive/01.json 1ms"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the validator's slowest: %v, want %v", got, want)
	}
	if r := slow[1].Results; len(r) != 2 || r[0].RelPath != "a.json" || InAll(slow[1].Total) != ", 3000.0 ms in all" {
		t.Errorf("gpu's slowest: %v, %q", r, InAll(slow[1].Total))
	}
	for i := range run.Results {
		run.Results[i].Duration = 0
	}
	run.Implementations = run.Implementations[:1]
	if slow := Slowest(run, SlowestShown); slow != nil {
		t.Errorf("a run that took no time has slowest fixtures: %v", slow)
	}
}

func TestTook(t *testing.T) {
	for d, want := range map[time.Duration]string{250 * time.Microsecond: "0.2 ms", 1234567 * time.Microsecond: "1234.6 ms", 12 * time.Second: "12.0 s"} {
		if got := Took(d); got != want {
			t.Errorf("Took(%v) = %q, want %q", d, got, want)
		}
	}
}
