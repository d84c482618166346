package runner_test

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// seeds adds every fixture of the project's corpus to a fuzz target.
func seeds(f *testing.F) {
	for _, folder := range runner.Folders {
		entries, err := fixtures.FS.ReadDir(folder)
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			data, err := fixtures.FS.ReadFile(folder + "/" + e.Name())
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{"", "{", `{"name": 1}`, "\xef\xbb\xbf{}", `{"a":1,"a":2}`, "[[[[", `{"commands": [{"cmd": "Draw"}]}`} {
		f.Add([]byte(s))
	}
	for _, s := range hostileSeeds() {
		f.Add([]byte(s))
	}
}

// hostileSeeds are fixtures a pull request could commit to crash or stall
// the gate: numbers whose exact value is enormous, nesting at and past the
// decoder's depth limit, long strings, invalid UTF-8 and lone surrogates,
// each where the envelope, the command schema and the Checker read them.
func hostileSeeds() []string {
	const h, r = `{"cmd": "HelloRenderer", "version": {"major": 2, "minor": 0}}`, `{"cmd": "RendererHelloReply", "version": {"major": 2, "minor": 0}, "status": "ok"}`
	fixture := func(name, version, capabilities string, commands ...string) string {
		return `{"name": "` + name + `", "version": ` + version + `, "capabilities": ` + capabilities +
			`, "commands": [` + strings.Join(commands, ", ") + `], "expected": {"outcome": "success"}}`
	}
	v := `{"major": 2, "minor": 0}`
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	return []string{
		fixture("exp", v, "{}", h, r, `{"cmd": "CreateBuffer", "id": 1, "size": 1e9999999, "usage": ["COPY_DST"]}`),
		fixture("exp6", v, "{}", h, r, `{"cmd": "CreateBuffer", "id": 1e999999, "size": 16, "usage": ["COPY_DST"]}`),
		fixture("tiny", v, "{}", h, r, `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"], "x": -1e-9999999}`),
		fixture("digits", v, "{}", h, r, `{"cmd": "CreateBuffer", "id": 1`+strings.Repeat("0", 5000)+`, "size": 16, "usage": ["COPY_DST"]}`),
		fixture("venv", `{"major": 2e9999999, "minor": 0}`, "{}", h, r),
		fixture("caps", v, `{"features": [1e9999999]}`, h, r),
		strings.Replace(fixture("index", v, "{}", h, r), `{"outcome": "success"}`, `{"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 1e9999999}`, 1),
		fixture("deep", v, "{}", h, r, `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": `+deep(9990)+`}`),
		fixture("deeper", v, "{}", h, r, deep(10001)),
		fixture("long", v, "{}", h, r, `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["`+strings.Repeat("x", 1<<16)+`"]}`),
		fixture("utf8\xff", v, "{}", h, r),
		fixture("cmd", v, "{}", h, r, "{\"cmd\": \"Create\xc3\x28Buffer\"}"),
		fixture(`\ud800`, v, "{}", h, r, `{"cmd": "\udfff"}`),
		fixture("key", v, "{}", h, r, `{"cmd": "CreateBuffer", "\ud83d": 1, "\ud83d": 2}`),
	}
}

// FuzzPipeline runs any bytes as a fixture through every phase: the run
// never fails as a whole, gives exactly one result, and no phase panics.
func FuzzPipeline(f *testing.F) {
	seeds(f)
	checker := drp2.New()
	schemas, err := runner.CompileSchemas(runner.Config{EmbeddedFS: fstest.MapFS{}, WorkDir: "/"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, folder := range []string{"positive", "negative_schema"} {
			fsys := fstest.MapFS{folder + "/x.json": {Data: data}}
			run, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fsys, WorkDir: "/", Checker: checker, Workers: 1, Schemas: schemas})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if len(run.Results) != 1 {
				t.Fatalf("%d results", len(run.Results))
			}
			r := run.Results[0]
			if strings.HasPrefix(r.Actual.Message, "internal error") {
				t.Fatalf("a phase panicked: %s", r.Actual.Message)
			}
			if !r.Passed && r.Span == nil && len(data) > 0 && !r.IsCorpusError() {
				t.Fatalf("a mismatch without a location: %+v", r.Actual)
			}
		}
	})
}

var emptyName = regexp.MustCompile(`"name": "[^"]*"`)

// FuzzEnvelopeCache: a fixture's result is the same after any other
// fixture of the run as alone, so nothing the first one leaves in the
// run's caches (the envelope's and the command schema's, by shape or by
// bytes) changes the second one's verdict. Workers is 1, so the first
// fixture is judged first.
func FuzzEnvelopeCache(f *testing.F) {
	var corpus [][]byte
	for _, folder := range runner.Folders {
		entries, err := fixtures.FS.ReadDir(folder)
		if err != nil {
			f.Fatal(err)
		}
		for i, e := range entries {
			if i%4 != 0 {
				continue
			}
			data, err := fixtures.FS.ReadFile(folder + "/" + e.Name())
			if err != nil {
				f.Fatal(err)
			}
			corpus = append(corpus, data)
		}
	}
	for i, data := range corpus {
		f.Add(data, corpus[(i+1)%len(corpus)])
		f.Add(data, []byte(strings.Replace(string(data), `"name": "`, `"name": "`+strings.Repeat("x", i%3), 1)))
		f.Add(data, emptyName.ReplaceAll(data, []byte(`"name": ""`)))
	}
	for _, s := range hostileSeeds() {
		f.Add(corpus[0], []byte(s))
	}
	checker := drp2.New()
	schemas, err := runner.CompileSchemas(runner.Config{EmbeddedFS: fstest.MapFS{}, WorkDir: "/"})
	if err != nil {
		f.Fatal(err)
	}
	now := func() time.Time { return time.Unix(0, 0) }
	f.Fuzz(func(t *testing.T, first, second []byte) {
		for _, folder := range []string{"positive", "negative", "negative_schema"} {
			cfg := runner.Config{WorkDir: "/", Checker: checker, Workers: 1, Schemas: schemas, Now: now}
			cfg.EmbeddedFS = fstest.MapFS{folder + "/b.json": {Data: second}}
			alone, err := runner.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.EmbeddedFS = fstest.MapFS{folder + "/a.json": {Data: first}, folder + "/b.json": {Data: second}}
			both, err := runner.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := both.Results[len(both.Results)-1]
			if want := alone.Results[0]; !reflect.DeepEqual(got, want) {
				t.Fatalf("in %s/, after another fixture:\n%+v\nalone:\n%+v", folder, got, want)
			}
		}
	})
}
