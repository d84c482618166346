package gate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
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
	got := inWorkspace(run, "/github/workspace/")
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
		t.Error("inWorkspace changed its input")
	}
	if inWorkspace(run, "").Results[0].Path != run.Results[0].Path {
		t.Error("an empty workspace changed a path")
	}
}

func TestInWorkspaceImplementations(t *testing.T) {
	run := &model.Run{Implementations: []model.Implementation{{Name: "x",
		Results: []model.Result{{Path: "/github/workspace/fixtures/negative/a.json"}},
		Summary: model.Summary{FailingPaths: []string{"/github/workspace/fixtures/negative/a.json"}}}}}
	got := inWorkspace(run, "/github/workspace")
	im := got.Implementations[0]
	if im.Results[0].Path != "fixtures/negative/a.json" || im.Summary.FailingPaths[0] != "fixtures/negative/a.json" || im.Name != "x" {
		t.Errorf("%+v", im)
	}
	if run.Implementations[0].Results[0].Path != "/github/workspace/fixtures/negative/a.json" {
		t.Error("the run itself changed")
	}
}

// TestExecuteBoundsOnce: the outcome's run is what every sink shows,
// bounded once and saying so, its files named from the workspace when the
// front end asks; the judgement and what goes on from the run (a
// manifest, an exploration) read the whole run as it was made.
func TestExecuteBoundsOnce(t *testing.T) {
	long := strings.Repeat("d", escape.ProseBytes+100)
	dir := testkit.Corpus(t, map[string]string{
		// A mismatch: only their prose is kept.
		"fixtures/negative/unknown.json": testkit.FixtureWith("unknown", testkit.InvalidID, `"reason": "`+long+`"`, testkit.Hello, testkit.Reply),
	})
	corpus := filepath.Join(dir, "fixtures")
	for _, ws := range []string{"", dir} {
		r, err := Resolve(Env{WorkDir: dir, Now: func() time.Time { return frozen }, Workspace: ws}, RunRequest{Source: Source{Corpus: corpus}})
		if err != nil {
			t.Fatal(err)
		}
		o, err := Execute(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if o.Run.Bounds.Full != escape.FullFailures || o.judged.Bounds.Full != 0 {
			t.Errorf("bounds %+v, judged %+v: want the run bounded once, the judged run whole", o.Run.Bounds, o.judged.Bounds)
		}
		if d := o.Run.Results[0].Reason; !strings.HasSuffix(d, "(100 more bytes)") || o.judged.Results[0].Reason != long {
			t.Errorf("reason shown %d bytes, judged %d: want it capped for the sinks alone", len(d), len(o.judged.Results[0].Reason))
		}
		if o.Run.Judgement != o.Verdict || o.judged.Judgement != o.Verdict {
			t.Error("the bounded run lost the judgement")
		}
		want := corpus
		if ws != "" {
			want = "fixtures"
		}
		if o.Run.CorpusRoot != want || o.judged.CorpusRoot != corpus {
			t.Errorf("workspace %q: corpus shown as %q, judged %q; want %q", ws, o.Run.CorpusRoot, o.judged.CorpusRoot, want)
		}
	}
}

// TestNewEnvWorkspace: the workspace the sinks name files from is
// $GITHUB_WORKSPACE, else the working directory, and only when asked.
func TestNewEnvWorkspace(t *testing.T) {
	for _, c := range []struct {
		ask       bool
		env, want string
	}{
		{false, "/github/workspace", ""},
		{true, "/github/workspace", "/github/workspace"},
		{true, "", "/work/dir"},
	} {
		e, err := NewEnv(Env{WorkDir: "/work/dir", InWorkspace: c.ask, Getenv: func(k string) string {
			return map[string]string{"GITHUB_WORKSPACE": c.env}[k]
		}})
		if err != nil {
			t.Fatal(err)
		}
		if e.Workspace != c.want {
			t.Errorf("%+v: workspace %q", c, e.Workspace)
		}
	}
}
