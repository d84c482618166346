package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

const hello = `{"cmd": "HelloRenderer", "version": {"major": 2, "minor": 0}}`
const reply = `{"cmd": "RendererHelloReply", "version": {"major": 2, "minor": 0}, "status": "ok"}`
const buffer = `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`

// fixtureJSON writes a fixture document.
func fixtureJSON(name string, expected string, commands ...string) string {
	return fmt.Sprintf(`{
  "name": %q,
  "version": {"major": 2, "minor": 0},
  "tags": ["t-%s"],
  "commands": [
    %s
  ],
  "expected": %s
}
`, name, name, strings.Join(commands, ",\n    "), expected)
}

const success = `{"outcome": "success"}`

func schemaError(i int) string {
	return fmt.Sprintf(`{"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": %d}`, i)
}

func semanticError(code string, i int) string {
	return fmt.Sprintf(`{"outcome": "error", "phase": "semantic_validation", "code": %q, "command_index": %d}`, code, i)
}

// writeCorpus lays files out under a temporary corpus root.
func writeCorpus(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// fakeChecker fails at the first command whose cmd is in fail, with the
// given phase and code, and counts its calls.
type fakeChecker struct {
	fail  map[string]model.Failure
	calls atomic.Int64
}

func (c *fakeChecker) Check(_ context.Context, s model.Stream, _ func(string)) (*model.Failure, []model.Finding) {
	c.calls.Add(1)
	for i, raw := range s.Commands {
		var cmd struct{ Cmd string }
		_ = json.Unmarshal(raw, &cmd)
		if f, ok := c.fail[cmd.Cmd]; ok {
			f.CommandIndex = i
			return &f, nil
		}
	}
	return nil, nil
}

var fixedNow = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func runCorpus(t *testing.T, cfg Config) *model.Run {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = fixedNow
	}
	if cfg.WorkDir == "" && filepath.IsAbs(cfg.Corpus) {
		cfg.WorkDir = cfg.Corpus
	}
	run, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return run
}

func byPath(run *model.Run) map[string]model.Result {
	m := map[string]model.Result{}
	for _, r := range run.Results {
		m[r.RelPath] = r
	}
	return m
}

func TestDiscoveryOrderIsLexicalBySlashPath(t *testing.T) {
	ok := func(n string) string { return fixtureJSON(n, success, hello, reply) }
	root := writeCorpus(t, map[string]string{
		"positive/b.json":          ok("b"),
		"positive/a.json":          ok("a"),
		"positive/sub/a.json":      ok("a2"),
		"positive/sub.x/a.json":    ok("a3"),
		"negative/z.json":          fixtureJSON("z", semanticError("DRP2_ERR_USAGE", 2), hello, reply, buffer),
		"negative_schema/m.json":   fixtureJSON("m", schemaError(2), hello, reply, `{"id": 1}`),
		"positive/notes.txt":       "not a fixture",
		"other/ignored.json":       ok("ignored"),
		"schema/also_ignored.json": "{}",
		"positive/UPPER.json":      ok("UPPER"),
		"positive/a.json.bak":      "x",
	})
	run := runCorpus(t, Config{Corpus: root})
	var got []string
	for _, r := range run.Results {
		got = append(got, r.RelPath)
	}
	want := []string{"negative/z.json", "negative_schema/m.json", "positive/UPPER.json", "positive/a.json",
		"positive/b.json", "positive/sub.x/a.json", "positive/sub/a.json"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order:\n got %v\nwant %v", got, want)
	}
	if run.Summary.Discovered != 7 || run.Summary.Run != 7 {
		t.Errorf("discovered %d run %d", run.Summary.Discovered, run.Summary.Run)
	}
}

func TestFilters(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/alpha.json":      fixtureJSON("alpha", success, hello, reply),
		"positive/beta.json":       strings.Replace(fixtureJSON("beta", success, hello, reply), `["t-beta"]`, `["x", "y"]`, 1),
		"positive/deep/gamma.json": strings.Replace(fixtureJSON("gamma", success, hello, reply), `["t-gamma"]`, `["x"]`, 1),
		"negative/alphabet.json":   fixtureJSON("alphabet", semanticError("DRP2_ERR_USAGE", 2), hello, reply, buffer),
	})
	names := func(run *model.Run) string {
		var n []string
		for _, r := range run.Results {
			n = append(n, r.Name)
		}
		return strings.Join(n, ",")
	}
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"none", Config{}, "alphabet,alpha,beta,gamma"},
		{"name substring", Config{Name: "alpha"}, "alphabet,alpha"},
		{"one tag", Config{Tags: []string{"x"}}, "beta,gamma"},
		{"all tags must be present", Config{Tags: []string{"x", "y"}}, "beta"},
		{"tag and name", Config{Tags: []string{"x"}, Name: "gam"}, "gamma"},
		{"file path", Config{Paths: []string{"positive/beta.json"}}, "beta"},
		{"folder path", Config{Paths: []string{"positive/deep"}}, "gamma"},
		{"two paths", Config{Paths: []string{"negative", "positive/alpha.json"}}, "alphabet,alpha"},
		{"corpus root as path", Config{Paths: []string{"."}}, "alphabet,alpha,beta,gamma"},
		{"no match", Config{Name: "nothing"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Corpus = root
			run := runCorpus(t, c.cfg)
			if got := names(run); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if run.Summary.Discovered != 4 {
				t.Errorf("discovered = %d, want 4 whatever the filters", run.Summary.Discovered)
			}
			if run.Summary.Run != len(run.Results) {
				t.Errorf("run = %d, results = %d", run.Summary.Run, len(run.Results))
			}
		})
	}
	if _, err := Run(context.Background(), Config{Corpus: root, WorkDir: root, Paths: []string{"missing.json"}}); !errors.Is(err, ErrInput) {
		t.Errorf("missing path: err = %v, want ErrInput", err)
	}
	if _, err := Run(context.Background(), Config{Corpus: root, WorkDir: root, Paths: []string{"/"}}); !errors.Is(err, ErrInput) {
		t.Errorf("path outside corpus: err = %v, want ErrInput", err)
	}
}

func TestClassesAndMatching(t *testing.T) {
	checker := &fakeChecker{fail: map[string]model.Failure{
		"DestroyBuffer": {Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE"},
		"CreateTexture": {Phase: model.PhaseCapability, Code: "DRP2_ERR_UNSUPPORTED_CAPABILITY"},
	}}
	destroy := `{"cmd": "DestroyBuffer", "buffer_id": 1}`
	texture := `{"cmd": "CreateTexture", "id": 2, "dimension": "2d", "width": 4, "height": 4, "depth": 1, "format": "rgba8unorm", "usage": ["COPY_DST"], "mip_level_count": 1, "sample_count": 1}`
	capError := `{"outcome": "error", "phase": "capability_validation", "code": "DRP2_ERR_UNSUPPORTED_CAPABILITY", "command_index": 3}`
	root := writeCorpus(t, map[string]string{
		"positive/pass.json":              fixtureJSON("pass", success, hello, reply, buffer),
		"positive/fail.json":              fixtureJSON("fail", success, hello, reply, buffer, destroy),
		"negative/match.json":             fixtureJSON("match", semanticError("DRP2_ERR_USAGE", 3), hello, reply, buffer, destroy),
		"negative/wrong_code.json":        fixtureJSON("wrong_code", semanticError("DRP2_ERR_INVALID_ID", 3), hello, reply, buffer, destroy),
		"negative/wrong_index.json":       fixtureJSON("wrong_index", semanticError("DRP2_ERR_USAGE", 2), hello, reply, buffer, destroy),
		"negative/no_index.json":          fixtureJSON("no_index", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE"}`, hello, reply, buffer, destroy),
		"negative/passes.json":            fixtureJSON("passes", semanticError("DRP2_ERR_USAGE", 2), hello, reply, buffer),
		"negative/capability.json":        fixtureJSON("capability", capError, hello, reply, buffer, texture),
		"negative_schema/match.json":      fixtureJSON("match_schema", schemaError(3), hello, reply, buffer, `{"cmd": "CreateBuffer", "id": 2}`),
		"negative_schema/valid.json":      fixtureJSON("valid", schemaError(2), hello, reply, buffer, destroy),
		"negative_schema/first_wins.json": fixtureJSON("first_wins", strings.Replace(schemaError(2), "INVALID_ARGUMENT", "UNKNOWN_COMMAND", 1), hello, reply, `{"cmd": "Nope"}`, `{"cmd": "CreateBuffer"}`),
	})
	run := runCorpus(t, Config{Corpus: root, Checker: checker})
	r := byPath(run)
	want := map[string]struct {
		class  model.Class
		passed bool
		phase  model.Phase
		code   string
		index  int
	}{
		"positive/pass.json":              {model.ClassPositive, true, "", "", -1},
		"positive/fail.json":              {model.ClassPositive, false, model.PhaseSemantic, "DRP2_ERR_USAGE", 3},
		"negative/match.json":             {model.ClassNegative, true, model.PhaseSemantic, "DRP2_ERR_USAGE", 3},
		"negative/wrong_code.json":        {model.ClassNegative, false, model.PhaseSemantic, "DRP2_ERR_USAGE", 3},
		"negative/wrong_index.json":       {model.ClassNegative, false, model.PhaseSemantic, "DRP2_ERR_USAGE", 3},
		"negative/no_index.json":          {model.ClassNegative, true, model.PhaseSemantic, "DRP2_ERR_USAGE", 3},
		"negative/passes.json":            {model.ClassNegative, false, "", "", -1},
		"negative/capability.json":        {model.ClassNegative, true, model.PhaseCapability, "DRP2_ERR_UNSUPPORTED_CAPABILITY", 3},
		"negative_schema/match.json":      {model.ClassSchemaNegative, true, model.PhaseSchema, "DRP2_ERR_INVALID_ARGUMENT", 3},
		"negative_schema/valid.json":      {model.ClassSchemaNegative, false, "", "", -1},
		"negative_schema/first_wins.json": {model.ClassSchemaNegative, true, model.PhaseSchema, "DRP2_ERR_UNKNOWN_COMMAND", 2},
	}
	for path, w := range want {
		got, ok := r[path]
		if !ok {
			t.Errorf("%s: no result", path)
			continue
		}
		idx := -1
		if got.Actual.CommandIndex != nil {
			idx = *got.Actual.CommandIndex
		}
		if got.Class != w.class || got.Passed != w.passed || got.Actual.Phase != w.phase || got.Actual.Code != w.code || idx != w.index {
			t.Errorf("%s: class %v passed %v phase %q code %q index %d; want %v %v %q %q %d (%s)",
				path, got.Class, got.Passed, got.Actual.Phase, got.Actual.Code, idx, w.class, w.passed, w.phase, w.code, w.index, got.Actual.Message)
		}
		if !got.Passed && got.Span == nil {
			t.Errorf("%s: a mismatch without a location", path)
		}
	}
	// Schema negatives never reach the semantic phase.
	if n := checker.calls.Load(); n != 8 {
		t.Errorf("checker called %d times, want 8 (once per non-schema fixture)", n)
	}
	if run.Summary.Passed+run.Summary.Failed != run.Summary.Run {
		t.Errorf("summary does not add up: %+v", run.Summary)
	}
}

func TestPhaseOrderFirstFailureWins(t *testing.T) {
	// A command that fails the schema must never be reported as the
	// semantic failure of a later command, and the checker never runs.
	checker := &fakeChecker{fail: map[string]model.Failure{"CreateBuffer": {Phase: model.PhaseSemantic, Code: "DRP2_ERR_DUPLICATE_ID"}}}
	root := writeCorpus(t, map[string]string{
		"negative/x.json": fixtureJSON("x", semanticError("DRP2_ERR_DUPLICATE_ID", 2), hello, reply, buffer, `{"cmd": "CreateBuffer", "id": 1, "size": "big", "usage": []}`),
	})
	run := runCorpus(t, Config{Corpus: root, Checker: checker})
	got := run.Results[0]
	if got.Actual.Phase != model.PhaseSchema || *got.Actual.CommandIndex != 3 || got.Passed {
		t.Errorf("got %+v", got.Actual)
	}
	if checker.calls.Load() != 0 {
		t.Error("the semantic phase ran after a schema failure")
	}
	if got.Span == nil || got.Span.Line != 9 {
		t.Errorf("span = %+v, want the size field on line 9", got.Span)
	}
}

// TestDeepNestingIsACorpusError: the decoder refuses nesting past its
// depth limit; the file is a corpus error, not a crash. The other unusable
// files are golden cases (testdata/bad_input.txtar).
func TestDeepNestingIsACorpusError(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/deep.json": `{"name": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`,
		"positive/good.json": fixtureJSON("good", success, hello, reply),
	})
	r := byPath(runCorpus(t, Config{Corpus: root}))
	if got := r["positive/deep.json"]; !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "malformed JSON") || got.Span == nil || got.Span.Line != 1 {
		t.Errorf("deep: %+v %+v", got.Actual, got.Span)
	}
	if !r["positive/good.json"].Passed {
		t.Error("the good fixture did not pass")
	}
}

// TestMissingCommaPointsAtTheFix: the decoder stops at the key after a
// missing comma; the report points at the end of the value before it,
// where the comma goes.
func TestMissingCommaPointsAtTheFix(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/comma.json": "{\n  \"name\": \"comma\"\n  \"description\": \"x\"\n}\n",
		"positive/array.json": "{\n  \"tags\": [\"a\"\n    \"b\"]\n}\n",
	})
	r := byPath(runCorpus(t, Config{Corpus: root}))
	for path, col := range map[string]int{"positive/comma.json": 18, "positive/array.json": 15} {
		got := r[path]
		if !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "a comma is missing") || got.Span == nil || got.Span.Line != 2 || got.Span.Column != col {
			t.Errorf("%s: %+v at %+v, want line 2 column %d", path, got.Actual, got.Span, col)
		}
	}
}

func TestSizeLimit(t *testing.T) {
	big := fixtureJSON("big", success, hello, reply)
	big = strings.Replace(big, `"name": "big"`, `"name": "big", "notes": "`+strings.Repeat("x", 4096)+`"`, 1)
	root := writeCorpus(t, map[string]string{"positive/big.json": big})
	run := runCorpus(t, Config{Corpus: root, MaxFileSize: 1024})
	if got := run.Results[0]; !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "limit") {
		t.Errorf("got %+v", got.Actual)
	}
	run = runCorpus(t, Config{Corpus: root})
	if got := run.Results[0]; !got.Passed {
		t.Errorf("under the default limit: %+v", got.Actual)
	}
}

// errFS fails to open one file, as an unreadable file does for a user
// without permission (tests run as root, where chmod cannot show it).
type errFS struct {
	fs.FS
	bad string
}

func (e errFS) Open(name string) (fs.File, error) {
	if name == e.bad {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return e.FS.Open(name)
}

func TestUnreadableFile(t *testing.T) {
	mfs := fstest.MapFS{
		"positive/a.json": {Data: []byte(fixtureJSON("a", success, hello, reply))},
		"positive/b.json": {Data: []byte(fixtureJSON("b", success, hello, reply))},
	}
	run := runCorpus(t, Config{EmbeddedFS: errFS{mfs, "positive/a.json"}, WorkDir: "/"})
	r := byPath(run)
	if got := r["positive/a.json"]; !got.IsCorpusError() || !strings.Contains(got.Actual.Message, "permission denied") {
		t.Errorf("unreadable: %+v", got.Actual)
	}
	if !r["positive/b.json"].Passed {
		t.Error("the readable fixture did not pass")
	}
	if got := r["positive/b.json"].Path; got != "embedded:positive/b.json" {
		t.Errorf("embedded display path = %q", got)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 60; i++ {
		n := fmt.Sprintf("f%02d", i)
		files["positive/"+n+".json"] = fixtureJSON(n, success, hello, reply, buffer)
		files["negative/"+n+".json"] = fixtureJSON(n+"n", semanticError("DRP2_ERR_USAGE", 2), hello, reply, buffer)
	}
	root := writeCorpus(t, files)
	one := runCorpus(t, Config{Corpus: root, Workers: 1})
	many := runCorpus(t, Config{Corpus: root, Workers: 8})
	a, _ := json.Marshal(one)
	b, _ := json.Marshal(many)
	if string(a) != string(b) {
		t.Error("results differ between 1 and 8 workers")
	}
}

func TestUnusableInput(t *testing.T) {
	root := writeCorpus(t, map[string]string{"positive/a.json": fixtureJSON("a", success, hello, reply)})
	badSchema := filepath.Join(root, "bad.json")
	os.WriteFile(badSchema, []byte(`{"type": 12}`), 0o644)
	for name, cfg := range map[string]Config{
		"missing corpus":         {Corpus: filepath.Join(root, "nope")},
		"corpus is a file":       {Corpus: filepath.Join(root, "positive", "a.json")},
		"bad command schema":     {Corpus: root, CommandSchema: badSchema},
		"missing fixture schema": {Corpus: root, FixtureSchema: filepath.Join(root, "none.json")},
	} {
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", name, err)
		}
	}
}

func TestSchemaResolution(t *testing.T) {
	root := writeCorpus(t, map[string]string{"fixtures/positive/a.json": fixtureJSON("a", success, hello, reply)})
	corpus := filepath.Join(root, "fixtures")
	run := runCorpus(t, Config{Corpus: corpus})
	if run.CommandSchema.Source != Embedded || run.FixtureSchema.Source != Embedded || len(run.CommandSchema.SHA256) != 64 {
		t.Errorf("default: %+v %+v", run.CommandSchema, run.FixtureSchema)
	}
	// The upstream layout next to the corpus wins over embedded.
	upstream := filepath.Join("..", "..", "shared", "drp2")
	if _, err := os.Stat(upstream); err != nil {
		missingUpstream(t, "upstream DRP2 checkout not found at %s", upstream)
	}
	os.MkdirAll(filepath.Join(root, "schema"), 0o755)
	os.MkdirAll(filepath.Join(corpus, "schema"), 0o755)
	copyFile(t, filepath.Join(upstream, "fixtures", "schema", "drp_fixture.schema.json"), filepath.Join(corpus, "schema", "drp_fixture.schema.json"))
	run = runCorpus(t, Config{Corpus: corpus})
	if !strings.HasSuffix(run.FixtureSchema.Source, "drp_fixture.schema.json") {
		t.Errorf("upstream fixture schema not used: %+v", run.FixtureSchema)
	}
	run = runCorpus(t, Config{Corpus: corpus, FixtureSchema: Embedded})
	if run.FixtureSchema.Source != Embedded {
		t.Errorf("embedded not forced: %+v", run.FixtureSchema)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLongStreamFirstSchemaFailure checks the chunked, parallel schema
// phase of long streams: the lowest failing index wins, whichever chunk
// finishes first.
func TestLongStreamFirstSchemaFailure(t *testing.T) {
	for _, firstBad := range []int{3, 4099, 9000} {
		cmds := []string{hello, reply}
		for i := 2; i < 12000; i++ {
			c := fmt.Sprintf(`{"cmd": "CreateBuffer", "id": %d, "size": 16, "usage": ["COPY_DST"]}`, i)
			if i == firstBad || i == firstBad+1500 || i == 11000 {
				c = fmt.Sprintf(`{"cmd": "CreateBuffer", "id": %d, "size": -1, "usage": ["COPY_DST"]}`, i)
			}
			cmds = append(cmds, c)
		}
		root := writeCorpus(t, map[string]string{"negative_schema/long.json": fixtureJSON("long", schemaError(firstBad), cmds...)})
		for i := 0; i < 5; i++ {
			got := runCorpus(t, Config{Corpus: root}).Results[0]
			if !got.Passed {
				t.Fatalf("first bad %d: %+v", firstBad, got.Actual)
			}
		}
	}
}

// TestEnvelopeOfALongStream: past envelopeCommands the envelope phase sees
// one stand-in of each kind, and still names the command at fault by its
// index in the file.
func TestEnvelopeOfALongStream(t *testing.T) {
	long := []string{hello, reply}
	for len(long) < envelopeCommands+500 {
		long = append(long, buffer)
	}
	bad := append(append([]string{}, long...), buffer, `"not a command"`, buffer)
	root := writeCorpus(t, map[string]string{
		"positive/long.json": fixtureJSON("long", success, long...),
		"positive/bad.json":  fixtureJSON("bad", success, bad...),
	})
	r := byPath(runCorpus(t, Config{Corpus: root}))
	if got := r["positive/long.json"]; got.IsCorpusError() {
		t.Errorf("long: %+v", got.Actual)
	}
	index := len(long) + 1
	got := r["positive/bad.json"]
	if !got.IsCorpusError() || !strings.Contains(got.Actual.Message, fmt.Sprintf("/commands/%d:", index)) || got.Span == nil || got.Span.Line != 6+index {
		t.Errorf("bad: %+v %+v", got.Actual, got.Span)
	}
}
