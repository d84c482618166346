package drp2_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/drp2/drp2-fixtures/runner/drp2"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	mdreport "github.com/drp2/drp2-fixtures/report/markdown"
	textreport "github.com/drp2/drp2-fixtures/report/text"
	"github.com/drp2/drp2-fixtures/runner"
)

const identityRule = "LIFETIMES.md Identity rule 1"

// fake traces "COMMANDS.md <cmd> rule 1" for every command it reaches and
// the identity rule for every WriteBuffer, which fails by it when the
// buffer was never created. It keeps no state between calls.
type fake struct{}

func (f fake) Check(_ context.Context, s model.Stream, seen func(string)) (*model.Failure, []model.Finding) {
	if seen == nil {
		seen = func(string) {}
	}
	return f.verdict(s, seen), nil
}

func (fake) verdict(s model.Stream, seen func(string)) *model.Failure {
	created := map[int]bool{}
	for i, raw := range s.Commands {
		var c struct {
			Cmd      string
			ID       int
			BufferID int `json:"buffer_id"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return &model.Failure{Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_ARGUMENT", CommandIndex: i}
		}
		seen("COMMANDS.md " + c.Cmd + " rule 1")
		switch c.Cmd {
		case "CreateBuffer":
			created[c.ID] = true
		case "WriteBuffer":
			seen(identityRule)
			if !created[c.BufferID] {
				return &model.Failure{Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_ID", CommandIndex: i, Rule: identityRule}
			}
		}
	}
	return nil
}

var rules = []drp2.RuleInfo{
	{ID: "COMMANDS.md HelloRenderer rule 1", Code: "DRP2_ERR_INVALID_STATE", Summary: "hello opens the session"},
	{ID: "COMMANDS.md RendererHelloReply rule 1", Code: "DRP2_ERR_INVALID_STATE", Summary: "the reply follows hello"},
	{ID: "COMMANDS.md CreateBuffer rule 1", Code: "DRP2_ERR_DUPLICATE_ID", Summary: "a new id"},
	{ID: "COMMANDS.md WriteBuffer rule 1", Code: "DRP2_ERR_OUT_OF_RANGE", Summary: "the write fits"},
	{ID: identityRule, Code: "DRP2_ERR_INVALID_ID", Summary: "ids name live objects"},
	{ID: "COMMANDS.md Draw rule 1", Code: "DRP2_ERR_INVALID_STATE", Summary: "draw inside a render pass"},
	{ID: "LIFETIMES.md Readback Lifetime rule 9", Summary: "reply data should be of size bytes (a finding)"},
}

func fixture(name string, commands []string, expected string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(fmt.Sprintf(`{"name": %q, "version": {"major": 2, "minor": 0},
  "commands": [%s],
  "expected": %s}`, name, strings.Join(append([]string{testkit.Handshake}, commands...), ",\n    "), expected))}
}

func buffer(id int) string {
	return fmt.Sprintf(`{"cmd": "CreateBuffer", "id": %d, "size": 16, "usage": ["COPY_DST"]}`, id)
}

func write(id int) string {
	return fmt.Sprintf(`{"cmd": "WriteBuffer", "buffer_id": %d, "offset": 0, "size": 4, "data": "AAAAAA=="}`, id)
}

const (
	success    = `{"outcome": "success"}`
	invalidID  = `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_INVALID_ID", "command_index": 2}`
	wrongCode  = `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_DESTROYED_OBJECT", "command_index": 2}`
	schemaFail = `{"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 2}`
)

func corpus() fstest.MapFS {
	return fstest.MapFS{
		"positive/handshake.json":      fixture("handshake", nil, success),
		"positive/write.json":          fixture("write", []string{buffer(1), write(1)}, success),
		"positive/write_again.json":    fixture("write_again", []string{buffer(1), write(1)}, success),
		"negative/unknown_buffer.json": fixture("unknown_buffer", []string{write(7)}, invalidID),
		// Fails by the identity rule, but not as it expects: not counted.
		"negative/wrong_code.json": fixture("wrong_code", []string{write(7)}, wrongCode),
		// A valid stream expected to fail: its trace must not count as a
		// positive fixture's.
		"negative/passes_wrongly.json": fixture("passes_wrongly", []string{buffer(2)}, invalidID),
		"negative_schema/no_cmd.json":  fixture("no_cmd", []string{`{"buffer_id": 1}`}, schemaFail),
	}
}

func count(t *testing.T, fsys fstest.MapFS, workers int) *model.Coverage {
	t.Helper()
	counter := drp2.NewCoverageCounter(fake{})
	run, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fsys, WorkDir: t.TempDir(), Checker: counter,
		Workers: workers, Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := drp2.CountCoverage(rules, run, counter)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestCounts(t *testing.T) {
	rep := count(t, corpus(), 4)
	type counts struct{ neg, pos int }
	want := map[string]counts{
		"COMMANDS.md HelloRenderer rule 1":      {0, 3},
		"COMMANDS.md RendererHelloReply rule 1": {0, 3},
		"COMMANDS.md CreateBuffer rule 1":       {0, 2},
		"COMMANDS.md WriteBuffer rule 1":        {0, 2},
		identityRule:                            {1, 2},
		"COMMANDS.md Draw rule 1":               {0, 0},
		"LIFETIMES.md Readback Lifetime rule 9": {0, 0},
	}
	if len(rep.Rules) != len(want) {
		t.Fatalf("%d rules, want %d", len(rep.Rules), len(want))
	}
	for _, rc := range rep.Rules {
		if got := (counts{rc.Negative, rc.Positive}); got != want[rc.ID] {
			t.Errorf("%s: negative %d positive %d, want %+v", rc.ID, got.neg, got.pos, want[rc.ID])
		}
	}
	// Uncovered first, in rule order; then the covered ones; then those
	// that cannot fail a stream.
	if rep.Rules[0].ID != rules[0].ID || rep.Rules[4].ID != "COMMANDS.md Draw rule 1" || rep.Rules[5].ID != identityRule ||
		rep.Rules[6].ID != "LIFETIMES.md Readback Lifetime rule 9" || !rep.Rules[6].FindingOnly {
		t.Errorf("order: %v", coverageIDs(rep))
	}
	if got := rep.Rules[5].NegativeFixtures; len(got) != 1 || got[0] != "embedded:negative/unknown_buffer.json" {
		t.Errorf("negative fixtures of the identity rule: %q", got)
	}
	if rep.Uncovered != 5 || rep.PositiveFixtures != 3 || rep.NegativeFixtures != 1 || rep.NotCounted != 2 {
		t.Errorf("uncovered %d positive %d negative %d not counted %d, want 5 3 1 2",
			rep.Uncovered, rep.PositiveFixtures, rep.NegativeFixtures, rep.NotCounted)
	}
}

func coverageIDs(r *model.Coverage) []string {
	var out []string
	for _, rc := range r.Rules {
		out = append(out, rc.ID)
	}
	return out
}

func TestUnlistedRulesAreShown(t *testing.T) {
	counter := drp2.NewCoverageCounter(fake{})
	fsys := corpus()
	run, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fsys, WorkDir: t.TempDir(), Checker: counter})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := drp2.CountCoverage(rules[:2], run, counter)
	if err != nil {
		t.Fatal(err)
	}
	var unlisted []string
	for _, rc := range rep.Rules {
		if rc.Unlisted {
			unlisted = append(unlisted, rc.ID)
		}
	}
	if strings.Join(unlisted, "|") != "COMMANDS.md CreateBuffer rule 1|COMMANDS.md WriteBuffer rule 1|"+identityRule {
		t.Errorf("unlisted rules: %q", unlisted)
	}
}

func TestGoldenAndDeterministic(t *testing.T) {
	rep := count(t, corpus(), 4)
	render := func(r *model.Coverage) (text, md, js []byte) {
		var a, b, c bytes.Buffer
		if err := textreport.Coverage(&a, r); err != nil {
			t.Fatal(err)
		}
		if err := mdreport.Coverage(&b, r); err != nil {
			t.Fatal(err)
		}
		if err := jsonout.WriteCoverage(&c, r); err != nil {
			t.Fatal(err)
		}
		return a.Bytes(), b.Bytes(), c.Bytes()
	}
	text, md, js := render(rep)
	golden.Check(t, "coverage.txt", text)
	golden.Check(t, "coverage.md", md)
	golden.Check(t, "coverage.json", js)
	t2, m2, j2 := render(count(t, corpus(), 1))
	if !bytes.Equal(text, t2) || !bytes.Equal(md, m2) || !bytes.Equal(js, j2) {
		t.Fatal("one worker and four give different reports")
	}
}

func TestACounterFromAnotherRunIsAnError(t *testing.T) {
	fsys := corpus()
	run, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fsys, WorkDir: t.TempDir(), Checker: drp2.NewCoverageCounter(fake{})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drp2.CountCoverage(rules, run, drp2.NewCoverageCounter(fake{})); err == nil || !strings.Contains(err.Error(), "positive/handshake.json") {
		t.Fatalf("err = %v", err)
	}
}

// findingFake is fake with one finding for every stream that writes a
// buffer.
type findingFake struct{ fake }

func (f findingFake) Check(_ context.Context, s model.Stream, seen func(string)) (*model.Failure, []model.Finding) {
	if seen == nil {
		seen = func(string) {}
	}
	var findings []model.Finding
	for _, raw := range s.Commands {
		if strings.Contains(string(raw), `"WriteBuffer"`) {
			findings = append(findings, model.Finding{Kind: "readback_data", Message: "a finding"})
			break
		}
	}
	return f.verdict(s, seen), findings
}

func TestCounterKeepsTheCheckersFindings(t *testing.T) {
	fsys := corpus()
	plain, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fsys, WorkDir: t.TempDir(), Checker: findingFake{}})
	if err != nil {
		t.Fatal(err)
	}
	counted, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fsys, WorkDir: t.TempDir(), Checker: drp2.NewCoverageCounter(findingFake{})})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Findings) == 0 || len(counted.Findings) != len(plain.Findings) {
		t.Fatalf("findings: %d with the counter, %d without", len(counted.Findings), len(plain.Findings))
	}
	// A tracer without findings gives none, and the same verdicts.
	if f, findings := drp2.NewCoverageCounter(fake{}).Check(context.Background(), model.Stream{}, nil); f != nil || findings != nil {
		t.Fatalf("Check without findings: %v %v", f, findings)
	}
}
