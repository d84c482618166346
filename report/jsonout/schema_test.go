package jsonout

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/docs"
	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestGoldensValidate: the golden reports of this package (a plain run,
// implementations with the Level 3 preview, a comparison, an unavailable
// baseline) validate against docs/report.schema.json, the schema
// published for collectors, closed to members it does not describe.
// internal/cli and internal/cli/action hold every report their tests
// write to it too.
func TestGoldensValidate(t *testing.T) {
	s, err := testkit.StrictSchema(docs.ReportSchema, "")
	if err != nil {
		t.Fatal(err)
	}
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	if len(goldens) < 4 {
		t.Fatalf("only %d goldens", len(goldens))
	}
	for _, p := range goldens {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := testkit.ValidateJSON(s, data); err != nil {
			t.Errorf("%s:\n%v", p, err)
		}
	}
}

// TestSamplesValidate: the report of every sample run, the goldens' and
// those with no golden (a WebGPU runtime's adapter, phases and Level 3
// preview, failures past the ones given in full), validates against the
// schema closed to members it does not describe, and the samples reach
// the members a command line test cannot easily reach.
func TestSamplesValidate(t *testing.T) {
	s, err := testkit.StrictSchema(docs.ReportSchema, "")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for name, run := range map[string]*model.Run{"plain": sample.Run(), "implementations": sample.WithImplementations(),
		"webgpu": sample.WithWebGPU(), "images": sample.WithImages(), "expectations": sample.WithExpectations(), "compared": sample.Compared(),
		"unavailable": sample.Unavailable(), "huge": bound.Run(sample.Huge()), "left out": bound.RunTo(sample.Large(300), 5)} {
		var b bytes.Buffer
		if err := Write(&b, run); err != nil {
			t.Fatal(err)
		}
		if err := testkit.ValidateJSON(s, b.Bytes()); err != nil {
			t.Errorf("%s:\n%v", name, err)
		}
		if err := testkit.MemberPaths(b.Bytes(), "", seen); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{"/level3_preview/*/groups/*/first_differing_byte", "/fixture_readbacks", "/implementations/*/phases",
		"/implementations/*/adapter/platform", "/summary/detail_left_out", "/results/*/detail_left_out", "/comparison/schema_failure/all"} {
		if !seen[m] {
			t.Errorf("no sample's report holds %s", m)
		}
	}
}

// TestSchemaDescribesEveryMember: each member of the schema says what it
// means, and each member the report's types can write is in the schema,
// at its place: a field added to a type fails here before any mode
// writes it.
func TestSchemaDescribesEveryMember(t *testing.T) {
	undescribed, err := testkit.UndescribedMembers(docs.ReportSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range undescribed {
		t.Errorf("%s has no description", m)
	}
	var root map[string]any
	if err := json.Unmarshal(docs.ReportSchema, &root); err != nil {
		t.Fatal(err)
	}
	w := typeWalk{t: t, root: root}
	w.walk("", root, reflect.TypeOf(Document{}))
	if w.fields < 150 {
		t.Errorf("only %d fields of the report's types walked", w.fields)
	}
}

// typeWalk walks a Go type of the report beside the schema of its JSON.
type typeWalk struct {
	t      *testing.T
	root   map[string]any
	fields int
}

// resolve follows a schema's $ref within the document.
func (w *typeWalk) resolve(s map[string]any) map[string]any {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		def, _ := w.root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if def == nil {
			w.t.Fatalf("$ref %s names no definition", ref)
		}
		s = def
	}
}

func (w *typeWalk) walk(at string, schema map[string]any, typ reflect.Type) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	s := w.resolve(schema)
	switch {
	case typ == reflect.TypeOf(json.RawMessage{}) || typ == reflect.TypeOf(json.Number("")) || typ.Kind() == reflect.Slice && typ.Elem().Kind() == reflect.Uint8:
	case typ.Kind() == reflect.Struct:
		w.walkStruct(at, s, typ)
	case typ.Kind() == reflect.Slice:
		items, ok := s["items"].(map[string]any)
		if !ok {
			w.t.Errorf("%s: a list in the report, without items in the schema", at)
			return
		}
		w.walk(at+"/*", items, typ.Elem())
	case typ.Kind() == reflect.Map:
		values, ok := s["additionalProperties"].(map[string]any)
		if !ok {
			w.t.Errorf("%s: a map in the report, without additionalProperties in the schema", at)
			return
		}
		w.walk(at+"/*", values, typ.Elem())
	}
}

func (w *typeWalk) walkStruct(at string, s map[string]any, typ reflect.Type) {
	props, _ := s["properties"].(map[string]any)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && name == "" {
			w.walkStruct(at, s, f.Type)
			continue
		}
		w.fields++
		p, ok := props[name].(map[string]any)
		if !ok {
			w.t.Errorf("%s/%s (%s.%s) is not in docs/report.schema.json", at, name, typ.Name(), f.Name)
			continue
		}
		w.walk(at+"/"+name, p, f.Type)
	}
}

// TestUnweighableNumbers: a number whose exponent is too long for the
// schema library to weigh as an exact rational (1e-9999999 made it
// dereference a nil one, and the process reading the report crashed) is
// refused, naming its place, whatever the typed reader made of it; an
// exponent of 4 digits is still weighed.
func TestUnweighableNumbers(t *testing.T) {
	_, edit := goldenEdits(t)
	for _, c := range []struct{ number, want string }{
		{"1e-9999", ""},
		{"1e-9999999", "not a drp2-fixtures JSON report: at /summary/duration_ms: the number 1e-9999999 has an exponent of more than 4 digits"},
		{"0.5E-00000000000000000000000000000000000000000001", "at /summary/duration_ms: the number 0.5E-" + strings.Repeat("0", 35) + "… has an exponent"},
	} {
		data := edit(`"duration_ms": 42`, `"duration_ms": `+c.number)
		_, err := ReadReport(data)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.number, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.number, err, c.want)
		}
	}
}
