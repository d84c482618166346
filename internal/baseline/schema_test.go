package baseline

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// TestSchemaClosureChange: a command schema whose closure changed is a
// schema change even when its own file did not; the comparison names the
// files that changed and the schema error the most fixtures of unchanged
// files newly fail with.
func TestSchemaClosureChange(t *testing.T) {
	files := func(createBuffer string) []model.SchemaFile {
		return []model.SchemaFile{{Path: "commands/CreateBuffer.json", SHA256: createBuffer}, {Path: "drp_command.json", SHA256: "root"}}
	}
	pass := func(rel string) model.Result {
		return model.Result{RelPath: rel, Path: "fixtures/" + rel, Passed: true, Digest: model.Digest{File: rel}, Actual: model.Actual{Outcome: model.Success}}
	}
	fail := func(rel, msg string) model.Result {
		r := pass(rel)
		r.Passed, r.Actual = false, model.Actual{Outcome: model.Error, Phase: model.PhaseSchema, Code: "DRP2_ERR_INVALID_ARGUMENT", Message: msg}
		return r
	}
	const usages, size = "CreateBuffer: missing properties: 'usages'", "command 3: CreateBuffer: /size: must be >= 0"
	// One error at different commands is one error.
	at := func(r model.Result, index int) model.Result {
		r.Actual.CommandIndex = &index
		r.Actual.Message = fmt.Sprintf("command %d: %s", index, r.Actual.Message)
		return r
	}
	base := &model.Run{CommandSchema: model.SchemaSource{SHA256: "root", Closure: "one", Files: files("old")},
		Results: []model.Result{pass("a.json"), pass("b.json"), pass("c.json"), pass("d.json"), pass("edited.json"), fail("old.json", size)}}
	edited := fail("edited.json", size)
	edited.Digest.File = "edited now"
	head := &model.Run{CommandSchema: model.SchemaSource{SHA256: "root", Closure: "two", Files: files("new")},
		Results: []model.Result{
			fail("a.json", size), at(fail("b.json", usages), 2), at(fail("c.json", usages), 5), pass("d.json"),
			edited,                   // its file changed: not the schema's doing
			fail("added.json", size), // not on the base
			fail("old.json", size),   // failed so on the base
		}}
	c := Compare(base, head, "base")
	if !c.CommandSchemaChanged || c.FixtureSchemaChanged || !reflect.DeepEqual(c.CommandSchemaFiles, []string{"commands/CreateBuffer.json"}) {
		t.Errorf("changed %v %v, files %v", c.CommandSchemaChanged, c.FixtureSchemaChanged, c.CommandSchemaFiles)
	}
	want := &model.SchemaFailure{Message: usages, Path: "fixtures/b.json", Fixtures: 2, All: 3}
	if !reflect.DeepEqual(c.SchemaFailure, want) {
		t.Errorf("schema failure %+v, want %+v", c.SchemaFailure, want)
	}

	// A base report written before closures: compared by the schema
	// file's sum, which did not change.
	base.CommandSchema = model.SchemaSource{SHA256: "root"}
	if c := Compare(base, head, "base"); c.CommandSchemaChanged || c.SchemaFailure != nil {
		t.Errorf("a base without closures: changed %v, failure %+v", c.CommandSchemaChanged, c.SchemaFailure)
	}
}
