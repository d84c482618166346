package manifest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/annotation"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	mdreport "github.com/drp2/drp2-fixtures/report/markdown"
	textreport "github.com/drp2/drp2-fixtures/report/text"
	"github.com/drp2/drp2-fixtures/runner"
)

// fixture writes one fixture file; extra holds more top-level members.
func fixture(name, commands, expected, extra string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(fmt.Sprintf(`{
  "name": %q,
  "description": "a test fixture",%s
  "version": {"major": 2, "minor": 0},
  "commands": [
    %s
  ],
  "expected": %s
}
`, name, extra, commands, expected))}
}

const (
	writeBuffer   = `{"cmd": "WriteBuffer", "buffer_id": 7, "offset": 0, "data": "AAAAAA=="}`
	createBuffer  = `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`
	success       = `{"outcome": "success"}`
	unknownBuffer = `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_INVALID_ID", "command_index": 2}`
	missingCmd    = `{"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 2}`
)

// corpus is a small corpus of each class.
func corpus() fstest.MapFS {
	return fstest.MapFS{
		"positive/handshake.json":      fixture("handshake", testkit.Handshake, success, ""),
		"positive/create.json":         fixture("create", testkit.Handshake+",\n    "+createBuffer, success, "\n  \"tags\": [\"positive\"],"),
		"negative/unknown_buffer.json": fixture("unknown_buffer", testkit.Handshake+",\n    "+writeBuffer, unknownBuffer, ""),
		"positive/caps.json":           fixture("capability_caps", testkit.Handshake+",\n    "+createBuffer, success, "\n  \"capabilities\": {\"max_buffer_size\": 64},"),
		"negative_schema/no_cmd.json":  fixture("no_cmd", testkit.Handshake+",\n    "+`{"buffer_id": 1}`, missingCmd, ""),
	}
}

func run(t *testing.T, fsys fstest.MapFS, cfg runner.Config) *model.Run {
	t.Helper()
	cfg.EmbeddedFS = fsys
	cfg.WorkDir = t.TempDir()
	cfg.Now = func() time.Time { return time.Unix(0, 0) }
	r, err := runner.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func build(t *testing.T, fsys fstest.MapFS) *Manifest {
	t.Helper()
	m, unusable, err := Build(run(t, fsys, runner.Config{}), Source{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if len(unusable) > 0 {
		t.Fatalf("unusable: %v", unusable)
	}
	return m
}

func encode(t *testing.T, m *Manifest) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestManifestGolden(t *testing.T) {
	got := encode(t, build(t, corpus()))
	golden.Check(t, "manifest.golden", got)
	// Same corpus, another build (and another worker count): same bytes.
	again, _, err := Build(run(t, corpus(), runner.Config{Workers: 1}), Source{FS: corpus()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, encode(t, again)) {
		t.Fatal("two builds of one corpus differ")
	}
	assertSortedKeys(t, got)
}

// assertSortedKeys walks the document and fails on any object whose keys
// are out of order.
func assertSortedKeys(t *testing.T, data []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		last   string
		key    bool // the next string token is a key
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if k, ok := tok.(string); ok {
				if k < top.last {
					t.Fatalf("key %q after %q: keys are not sorted", k, top.last)
				}
				top.last, top.key = k, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			if top != nil && top.object {
				top.key = true
			}
			stack = append(stack, frame{object: true, key: true})
		case json.Delim('['):
			if top != nil && top.object {
				top.key = true
			}
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		default:
			if top != nil && top.object {
				top.key = true
			}
		}
	}
}

func TestRoundTripIsClean(t *testing.T) {
	m := build(t, corpus())
	m.Frozen = true
	rec, err := Decode(encode(t, m))
	if err != nil {
		t.Fatal(err)
	}
	c := Compare(rec, build(t, corpus()))
	if !c.Clean() || c.Violations != 0 || c.Unchanged != 5 {
		t.Fatalf("round trip not clean: %+v", c)
	}
	if !bytes.Equal(encode(t, rec), encode(t, m)) {
		t.Fatal("decode then encode changed the manifest")
	}
}

// changed is corpus() after a pull request that does a bit of everything.
func changed() fstest.MapFS {
	fsys := corpus()
	// A changed expectation of a frozen fixture.
	fsys["negative/unknown_buffer.json"] = fixture("unknown_buffer", testkit.Handshake+",\n    "+writeBuffer,
		strings.Replace(unknownBuffer, "DRP2_ERR_INVALID_ID", "DRP2_ERR_DESTROYED_OBJECT", 1), "")
	// A new fixture.
	fsys["positive/added.json"] = fixture("added", testkit.Handshake, success, "")
	// A removed one.
	delete(fsys, "negative_schema/no_cmd.json")
	// A moved one, content unchanged.
	fsys["positive/handshake_only.json"] = fsys["positive/handshake.json"]
	delete(fsys, "positive/handshake.json")
	// Only the prose changed.
	fsys["positive/create.json"] = &fstest.MapFile{Data: bytes.Replace(fsys["positive/create.json"].Data,
		[]byte("a test fixture"), []byte("a better description"), 1)}
	// Capabilities changed: the stream means something else now.
	fsys["positive/caps.json"] = &fstest.MapFile{Data: bytes.Replace(fsys["positive/caps.json"].Data,
		[]byte(`"max_buffer_size": 64`), []byte(`"max_buffer_size": 8`), 1)}
	return fsys
}

func compareChanged(t *testing.T, frozen bool) (*model.ManifestCheck, []byte) {
	t.Helper()
	m := build(t, corpus())
	m.Frozen = frozen
	data := encode(t, m)
	rec, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return Compare(rec, build(t, changed())), data
}

func TestCheckGolden(t *testing.T) {
	for _, frozen := range []bool{true, false} {
		name := "check-unfrozen"
		if frozen {
			name = "check-frozen"
		}
		c, _ := compareChanged(t, frozen)
		c.Path = "manifest.json"
		var text, md, js bytes.Buffer
		if err := textreport.Manifest(&text, c); err != nil {
			t.Fatal(err)
		}
		if err := mdreport.Manifest(&md, c); err != nil {
			t.Fatal(err)
		}
		if err := jsonout.WriteManifest(&js, c); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name+".txt", text.Bytes())
		golden.Check(t, name+".md", md.Bytes())
		golden.Check(t, name+".json", js.Bytes())
	}
}

func TestFrozenManifest(t *testing.T) {
	c, _ := compareChanged(t, true)
	want := map[string]struct {
		kind      string
		violation bool
	}{
		"negative/unknown_buffer.json": {Changed, true},
		"positive/added.json":          {Added, false},
		"negative_schema/no_cmd.json":  {Removed, true},
		"positive/handshake_only.json": {Renamed, true},
		"positive/create.json":         {Changed, false},
		"positive/caps.json":           {Changed, true},
	}
	if len(c.Changes) != len(want) {
		t.Fatalf("got %d changes, want %d: %+v", len(c.Changes), len(want), c.Changes)
	}
	for _, ch := range c.Changes {
		w, ok := want[ch.Path]
		if !ok || ch.Kind != w.kind || ch.Violation != w.violation {
			t.Errorf("%s: got %s violation=%v, want %+v", ch.Path, ch.Kind, ch.Violation, w)
		}
	}
	if c.Violations != 4 || c.Unchanged != 0 {
		t.Errorf("violations %d unchanged %d, want 4 and 0", c.Violations, c.Unchanged)
	}
	for _, ch := range c.Changes {
		if ch.Path == "negative/unknown_buffer.json" &&
			(len(ch.Expected) != 1 || ch.Expected[0] != `code: "DRP2_ERR_INVALID_ID" → "DRP2_ERR_DESTROYED_OBJECT"`) {
			t.Errorf("expected members: %q", ch.Expected)
		}
	}
}

func TestFrozenAcceptsOnlyAddedFixtures(t *testing.T) {
	m := build(t, corpus())
	m.Frozen = true
	rec, err := Decode(encode(t, m))
	if err != nil {
		t.Fatal(err)
	}
	fsys := corpus()
	fsys["negative/another.json"] = fixture("another", testkit.Handshake+",\n    "+writeBuffer, unknownBuffer, "")
	c := Compare(rec, build(t, fsys))
	if c.Violations != 0 || count(c, Added) != 1 || len(c.Changes) != 1 || c.Clean() {
		t.Fatalf("an added fixture: %+v", c)
	}

	// The same expectation reformatted is no change of expectation.
	fsys = corpus()
	fsys["negative/unknown_buffer.json"] = fixture("unknown_buffer", testkit.Handshake+",\n    "+writeBuffer,
		strings.ReplaceAll(unknownBuffer, ", ", ",\n    "), "")
	c = Compare(rec, build(t, fsys))
	if c.Violations != 0 || len(c.Changes) != 1 || c.Changes[0].Aspects[0] != AspectOther {
		t.Fatalf("a reformatted expected block: %+v", c.Changes)
	}
}

func TestSchemaChange(t *testing.T) {
	m := build(t, corpus())
	m.Frozen = true
	m.Schemas.Command.SHA256 = strings.Repeat("0", 64)
	data := encode(t, m)
	rec, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	c := Compare(rec, build(t, corpus()))
	if len(c.Schemas) != 1 || !c.Schemas[0].Violation || c.Violations != 1 {
		t.Fatalf("schema change: %+v", c)
	}
	anns := annotation.ForManifest(c, annotation.ManifestWhere{Manifest: "fixtures/manifest.json"})
	if len(anns) != 1 || anns[0].Path != "fixtures/manifest.json" || anns[0].StartLine < 2 {
		t.Fatalf("annotation: %+v", anns)
	}
	if !strings.Contains(string(data[lineOffset(data, anns[0].StartLine):]), `"command"`) {
		t.Errorf("annotation line %d is not the command schema entry", anns[0].StartLine)
	}
}

func lineOffset(data []byte, line int) int {
	off := 0
	for i := 1; i < line; i++ {
		off += bytes.IndexByte(data[off:], '\n') + 1
	}
	return off
}

func TestAnnotationsPointAtTheChange(t *testing.T) {
	c, mdata := compareChanged(t, true)
	cur := changed()
	anns := annotation.ForManifest(c, annotation.ManifestWhere{Fixture: func(rel string) string { return "fixtures/" + rel }, Manifest: "fixtures/manifest.json"})
	if len(anns) != 4 {
		t.Fatalf("got %d annotations, want one per violation (4): %+v", len(anns), anns)
	}
	byPath := map[string]annotation.Annotation{}
	for _, a := range anns {
		byPath[a.Path] = a
		if a.Level != annotation.LevelFailure {
			t.Errorf("%s: level %s", a.Path, a.Level)
		}
	}
	a := byPath["fixtures/negative/unknown_buffer.json"]
	data := cur["negative/unknown_buffer.json"].Data
	if !strings.HasPrefix(string(data[lineOffset(data, a.StartLine):]), `  "expected"`) {
		t.Errorf("the changed expectation is annotated at line %d, not at the expected block", a.StartLine)
	}
	// A removed fixture has no file: its manifest entry is annotated.
	a = byPath["fixtures/manifest.json"]
	if !strings.Contains(string(mdata[lineOffset(mdata, a.StartLine):lineOffset(mdata, a.EndLine+1)]), "negative_schema/no_cmd.json") {
		t.Errorf("the removed fixture is annotated at lines %d-%d of the manifest, not at its entry", a.StartLine, a.EndLine)
	}
}

func TestUnfrozenReportsWithoutViolations(t *testing.T) {
	c, _ := compareChanged(t, false)
	if c.Violations != 0 || len(c.Changes) != 6 {
		t.Fatalf("unfrozen: %d violations, %d changes", c.Violations, len(c.Changes))
	}
	if anns := annotation.ForManifest(c, annotation.ManifestWhere{}); len(anns) != 0 {
		t.Fatalf("annotations without a freeze: %+v", anns)
	}
}

func TestBuildRefusesAFilteredRun(t *testing.T) {
	fsys := corpus()
	r := run(t, fsys, runner.Config{Paths: []string{"positive"}})
	if _, _, err := Build(r, Source{FS: fsys}); err == nil || !strings.Contains(err.Error(), "covers 3 of 5") {
		t.Fatalf("err = %v", err)
	}
}

func TestBuildReportsUnusableFixtures(t *testing.T) {
	fsys := corpus()
	fsys["positive/broken.json"] = &fstest.MapFile{Data: []byte(`{"name": "broken",`)}
	m, unusable, err := Build(run(t, fsys, runner.Config{}), Source{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if len(unusable) != 1 || !strings.Contains(unusable[0], "positive/broken.json") {
		t.Fatalf("unusable = %q", unusable)
	}
	// A check still compares it: breaking a frozen fixture is a violation.
	good := build(t, corpus())
	good.Fixtures = append(good.Fixtures, Fixture{Path: "positive/broken.json", Class: "positive", SHA256: Sums{File: "x"}})
	good.Frozen = true
	c := Compare(good, m)
	if c.Violations != 1 || c.Changes[0].Aspects[0] != AspectUnusable {
		t.Fatalf("a frozen fixture made unusable: %+v", c.Changes)
	}
}

func TestBuildRefusesMixedVersions(t *testing.T) {
	fsys := corpus()
	fsys["positive/next.json"] = &fstest.MapFile{Data: bytes.Replace(fixture("next", testkit.Handshake, success, "").Data,
		[]byte(`"version": {"major": 2, "minor": 0},`), []byte(`"version": {"major": 2, "minor": 1},`), 1)}
	_, unusable, err := Build(run(t, fsys, runner.Config{}), Source{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if len(unusable) != 1 || !strings.Contains(unusable[0], "2.1 (1 fixtures, first positive/next.json)") {
		t.Fatalf("unusable = %q", unusable)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"format": 3, "fixtures": []}`, `format "3", this tool reads formats 1 to 2`},
		{`{"format": 0, "fixtures": []}`, `format "0", this tool reads formats 1 to 2`},
		{`{"format": 1, "fixtures": [], "extra": true}`, `unknown field "extra"`},
		{"{\"format\": 1,\n \"fixtures\": [}", "line 2"},
		{`{"format": 1, "fixtures": [{"path": "a.json"}, {"path": "a.json"}]}`, "listed twice"},
		{`{"format": 1, "fixtures": [{"name": "x"}]}`, "has no path"},
		{`[]`, "unreadable manifest"},
	} {
		_, err := Decode([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%s) = %v, want %q", tc.data, err, tc.want)
		}
	}
}

func TestSchemaPathIsRelativeToTheCorpus(t *testing.T) {
	src := Source{CorpusDir: "/work/drp2/fixtures", WorkDir: "/work"}
	for _, tc := range []struct{ source, want string }{
		{"embedded", "embedded"},
		{"drp2/schema/drp_command.json", "../schema/drp_command.json"},
		{"/work/drp2/fixtures/schema/f.json", "schema/f.json"},
	} {
		if got := schemaOf(model.SchemaSource{Source: tc.source}, src).Path; got != tc.want {
			t.Errorf("schemaOf(%s) = %s, want %s", tc.source, got, tc.want)
		}
	}
}

// FuzzDecode: a manifest is read from a pull request's tree, so Decode
// must refuse anything malformed with an error, never a panic, and what it
// accepts must encode and decode to the same manifest.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"drp2_version": "2.0", "fixtures": [{"class": "positive", "expected": {"outcome": "success"}, "name": "a", "path": "positive/a.json", "sha256": {"file": "00"}}], "format": 1, "frozen": true, "schemas": {"command": {"path": "embedded", "sha256": "11"}, "fixture": {"path": "embedded", "sha256": "22"}}}`))
	f.Add([]byte(`{"format": 1}`))
	f.Add([]byte(`{"format": 1, "fixtures": [{"path": "a"}, {"path": "a"}]}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Encode(&b, m); err != nil {
			t.Fatalf("encode a decoded manifest: %v", err)
		}
		again, err := Decode(b.Bytes())
		if err != nil {
			t.Fatalf("decode an encoded manifest: %v\n%s", err, b.Bytes())
		}
		var b2 bytes.Buffer
		if err := Encode(&b2, again); err != nil || !bytes.Equal(b.Bytes(), b2.Bytes()) {
			t.Fatalf("encoding is not stable:\n%s\n%s", b.Bytes(), b2.Bytes())
		}
		// A manifest compared with itself is clean.
		if c := Compare(m, again); !c.Clean() || c.Violations != 0 {
			t.Fatalf("a manifest differs from itself: %+v", c)
		}
	})
}

// TestSchemaClosureCompare: a schema is compared by its closure, so that a
// change to a file its $refs reach breaks a freeze and is named; the same
// content at another path only moved; a format 1 manifest, which recorded
// no closure, is compared by the schema file's own sum.
func TestSchemaClosureCompare(t *testing.T) {
	schema := func(path, closure, createBuffer string) Schema {
		return Schema{Path: path, SHA256: "root", Closure: closure,
			Files: []SchemaFile{{Path: "commands/CreateBuffer.json", SHA256: createBuffer}, {Path: "drp_command.json", SHA256: "root"}}}
	}
	rec := &Manifest{Frozen: true, Schemas: Schemas{Command: schema("../schema/drp_command.json", "one", "old")}}
	cur := &Manifest{Schemas: Schemas{Command: schema("../schema/drp_command.json", "two", "new")}}
	c := Compare(rec, cur)
	if len(c.Schemas) != 1 || !c.Schemas[0].Violation || c.Violations != 1 || !reflect.DeepEqual(c.Schemas[0].Files, []string{"commands/CreateBuffer.json"}) {
		t.Fatalf("closure change: %+v", c.Schemas)
	}
	if want := "command schema changed (commands/CreateBuffer.json) since the manifest (DRP2 ?, frozen); 1 breaks the freeze"; c.Headline != want {
		t.Errorf("headline %q, want %q", c.Headline, want)
	}

	cur.Schemas.Command = schema("schema/drp_command.json", "one", "old")
	if c := Compare(rec, cur); len(c.Schemas) != 1 || c.Schemas[0].Violation || !strings.HasPrefix(c.Headline, "command schema moved since") {
		t.Errorf("moved: %+v %q", c.Schemas, c.Headline)
	}

	old, err := Decode([]byte(`{"format": 1, "frozen": true, "fixtures": [], "drp2_version": "2.0",
  "schemas": {"command": {"path": "../schema/drp_command.json", "sha256": "root"}, "fixture": {"path": "embedded", "sha256": ""}}}`))
	if err != nil {
		t.Fatal(err)
	}
	cur.DRP2Version, cur.Schemas = "2.0", Schemas{Command: schema("../schema/drp_command.json", "two", "new"), Fixture: Schema{Path: "embedded"}}
	if c := Compare(old, cur); len(c.Schemas) != 0 || c.Violations != 0 {
		t.Errorf("a format 1 manifest: %+v", c.Schemas)
	}
	cur.Schemas.Command.SHA256 = "other"
	if c := Compare(old, cur); len(c.Schemas) != 1 || !c.Schemas[0].Violation || c.Schemas[0].Files != nil {
		t.Errorf("a format 1 manifest, root changed: %+v", c.Schemas)
	}
}
