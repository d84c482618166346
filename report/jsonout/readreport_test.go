package jsonout

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestReadReportErrors: a report that is not one says so, with the line.
func TestReadReportErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n\"summary\": {},\n\"results\": [1}", "line 3"},
		{`{"summary": {}}`, `no "results"`},
		{`{"results": [{"fixture_path": "x.json"}]}`, "no corpus_path"},
		{`[]`, "not a drp2-fixtures JSON report"},
	} {
		_, err := ReadReport([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

// TestReadTypeErrorsKeepTheirWords: a report with a member of the wrong
// type is refused in the decoder's words, which name Go types: the names
// stay those it always printed, whatever the types are called now.
func TestReadTypeErrorsKeepTheirWords(t *testing.T) {
	const not = "not a drp2-fixtures JSON report: json: cannot unmarshal "
	for in, want := range map[string]string{
		`{"results": [], "verdict": {"failed": "yes"}}`:                    "string into Go struct field Verdict.verdict.failed of type bool",
		`{"results": [], "verdict": {"reasons": [1]}}`:                     "number into Go struct field Verdict.verdict.reasons of type string",
		`{"results": [], "verdict": 5}`:                                    "number into Go struct field Document.verdict of type jsonout.Verdict",
		`{"results": [], "implementations": [{"adapter": {"vendor": 1}}]}`: "number into Go struct field Adapter.implementations.adapter.vendor of type string",
		`{"results": [], "implementations": [{"adapter": []}]}`:            "array into Go struct field Implementation.implementations.adapter of type jsonout.Adapter",
		`{"results": [], "implementations": [{"restarts": "1"}]}`:          "string into Go struct field Implementation.implementations.restarts of type int",
		`{"results": 5}`: "number into Go struct field Document.results of type []jsonout.Result",
		`[]`:             "array into Go value of type jsonout.Document",
	} {
		_, err := ReadReport([]byte(in))
		if err == nil || err.Error() != not+want {
			t.Errorf("%s: %v\nwant %s", in, err, not+want)
		}
	}
}

// TestSchemaClosureReadBack: a report keeps each schema's closure and its
// files when read back as a baseline, and a report written before
// closures (one sha256 per schema) is still read, with none.
func TestSchemaClosureReadBack(t *testing.T) {
	run := &model.Run{Results: []model.Result{}}
	run.CommandSchema = model.SchemaSource{Source: "schema/drp_command.json", SHA256: "aa", Closure: "bb",
		Files: []model.SchemaFile{{Path: "commands/CreateBuffer.json", SHA256: "cc"}, {Path: "drp_command.json", SHA256: "aa"}}}
	run.FixtureSchema = model.SchemaSource{Source: "embedded", SHA256: "dd"}
	var b bytes.Buffer
	if err := Write(&b, run); err != nil {
		t.Fatal(err)
	}
	// Read, not ReadReport: the digests are cut short, which the
	// schema refuses.
	back, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.CommandSchema, run.CommandSchema) || !reflect.DeepEqual(back.FixtureSchema, run.FixtureSchema) {
		t.Errorf("read back %+v %+v\nwant %+v %+v", back.CommandSchema, back.FixtureSchema, run.CommandSchema, run.FixtureSchema)
	}

	old := `{"summary": {"command_schema": {"source": "schema/drp_command.json", "sha256": "aa"}, "fixture_schema": {"source": "embedded", "sha256": "dd"}}, "results": []}`
	back, err = Read(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if want := (model.SchemaSource{Source: "schema/drp_command.json", SHA256: "aa"}); !reflect.DeepEqual(back.CommandSchema, want) {
		t.Errorf("an earlier report's schema read as %+v, want %+v", back.CommandSchema, want)
	}
	// Compared by its own sum with a run that has a closure.
	if model.SchemaChanged(back.CommandSchema, run.CommandSchema) {
		t.Error("an earlier report's schema of the same bytes counts as changed")
	}
}
