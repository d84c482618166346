package explain

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestInWorkspace(t *testing.T) {
	run := &model.Run{
		CorpusRoot:    "/github/workspace/fixtures",
		CommandSchema: model.SchemaSource{Source: "/github/workspace/schema/drp_command.json"},
		FixtureSchema: model.SchemaSource{Source: "embedded"},
		Results: []model.Result{
			{Path: "/github/workspace/fixtures/negative/a.json"},
			{Path: "fixtures/negative/b.json"},
			{Path: "/github/workspaces/x.json"}, // a sibling, not inside
			{Path: "/tmp/c.json"},
		},
		Findings: []model.Finding{{Path: "/github/workspace/fixtures/positive/d.json"}},
		Summary:  model.Summary{FailingPaths: []string{"/github/workspace/fixtures/negative/a.json"}},
	}
	got := InWorkspace(run, "/github/workspace/")
	for name, c := range map[string][2]string{
		"corpus":         {got.CorpusRoot, "fixtures"},
		"command schema": {got.CommandSchema.Source, "schema/drp_command.json"},
		"fixture schema": {got.FixtureSchema.Source, "embedded"},
		"inside":         {got.Results[0].Path, "fixtures/negative/a.json"},
		"relative":       {got.Results[1].Path, "fixtures/negative/b.json"},
		"sibling":        {got.Results[2].Path, "/github/workspaces/x.json"},
		"outside":        {got.Results[3].Path, "/tmp/c.json"},
		"finding":        {got.Findings[0].Path, "fixtures/positive/d.json"},
		"failing path":   {got.Summary.FailingPaths[0], "fixtures/negative/a.json"},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
	if run.Results[0].Path != "/github/workspace/fixtures/negative/a.json" {
		t.Error("InWorkspace changed its input")
	}
	if InWorkspace(run, "").Results[0].Path != run.Results[0].Path {
		t.Error("an empty workspace changed a path")
	}
}

func TestInWorkspaceImplementations(t *testing.T) {
	run := &model.Run{Implementations: []model.Implementation{{Name: "x",
		Results: []model.Result{{Path: "/github/workspace/fixtures/negative/a.json"}},
		Summary: model.Summary{FailingPaths: []string{"/github/workspace/fixtures/negative/a.json"}}}}}
	got := InWorkspace(run, "/github/workspace")
	im := got.Implementations[0]
	if im.Results[0].Path != "fixtures/negative/a.json" || im.Summary.FailingPaths[0] != "fixtures/negative/a.json" || im.Name != "x" {
		t.Errorf("%+v", im)
	}
	if run.Implementations[0].Results[0].Path != "/github/workspace/fixtures/negative/a.json" {
		t.Error("the run itself changed")
	}
}
