package expect

import (
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// TestConditions: the KEY=VALUE fields after the expectation narrow an
// entry to a platform and an implementation version, a bad one is a
// malformed line, and an expired entry is a finding naming file:line.
func TestConditions(t *testing.T) {
	src := "rt negative/a.json fail platform=*linux* version=\"1.*\" owner=ana expires=2026-01-31 # bug 1\n" +
		"rt negative/a.json flaky\n" +
		"rt negative/b.json fail color=red\n" +
		"rt negative/b.json fail expires=soon\n" +
		"rt negative/b.json fail owner=a owner=b\n"
	l, err := Parse(strings.NewReader(src), "e.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 2 || len(l.Problems) != 3 {
		t.Fatalf("entries %+v\nproblems %+v", l.Entries, l.Problems)
	}
	if got := l.Entries[0].Conditions; got != (Conditions{Platform: "*linux*", Version: "1.*", Owner: "ana", Expires: "2026-01-31"}) {
		t.Errorf("conditions %+v", got)
	}
	if s := l.Entries[0].Conditions.String(); s != " platform=*linux* version=1.* owner=ana expires=2026-01-31" {
		t.Errorf("written as %q", s)
	}
	r := &model.Result{RelPath: "negative/a.json"}
	for _, c := range []struct {
		t    Target
		want model.Expectation
	}{
		{Target{Name: "rt", Version: "1.4", Platform: "node 20 linux"}, model.ExpectFail},
		{Target{Name: "rt", Version: "2.0", Platform: "node 20 linux"}, model.ExpectFlaky},
		{Target{Name: "rt", Version: "1.4", Platform: "windows"}, model.ExpectFlaky},
	} {
		got := model.ExpectPass
		if e := l.Match(c.t, r); e != nil {
			got = e.Expect
		}
		if got != c.want {
			t.Errorf("%+v: %s, want %s", c.t, got, c.want)
		}
	}
	run := &model.Run{Started: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)}
	l.Apply(run)
	var expiredSeen []string
	for _, f := range run.Findings {
		if f.Kind == FindingExpired {
			expiredSeen = append(expiredSeen, f.Message)
		}
	}
	want := "e.txt:1: expectation fail for negative/a.json expired on 2026-01-31 (owner ana); fix the fixture's failure, or renew the entry's expires="
	if strings.Join(expiredSeen, "\n") != want {
		t.Errorf("expired findings %q, want %q", expiredSeen, want)
	}
	if l.Entries[0].ExpiredOn(time.Date(2026, 1, 31, 23, 0, 0, 0, time.UTC)) {
		t.Error("expired on its own last day")
	}
}
