package gate

// The last steps of Execute: the outcome judged from the whole run, then
// the run made into what every sink shows, once, so that no renderer
// decides again what to show.

import (
	"context"
	"path"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/model"
)

// judgeOutcome is the one judgement of the outcome (judge), made from
// the whole run and recorded in it, with the manifest comparison and the
// rule coverage it was judged with.
func judgeOutcome(_ context.Context, r *Resolved, o *Outcome) error {
	o.Verdict = judge(o, r.job)
	o.Run.Judgement = o.Verdict
	o.Run.Manifest = o.Manifest.model()
	o.Run.Coverage = o.Coverage
	o.judged = o.Run
	return nil
}

// nameInWorkspace names the run's files relative to the workspace when the
// front end asked for it (Env.InWorkspace): in a Docker action the
// workspace is mounted at /github/workspace, and a report that names that
// path names a file nobody else can find.
func nameInWorkspace(_ context.Context, r *Resolved, o *Outcome) error {
	if r.env.Workspace != "" {
		o.Run = inWorkspace(o.Run, r.env.Workspace)
	}
	return nil
}

// boundForSinks bounds the run for every sink (bound.Run): the renderers
// render what they are given.
func boundForSinks(_ context.Context, _ *Resolved, o *Outcome) error {
	o.Run = bound.Run(o.Run)
	return nil
}

// inWorkspace returns a copy of run whose paths are relative to workspace
// wherever they lie under it: fixture paths, finding paths, the failing
// paths, the corpus root and the schema sources. Paths outside the
// workspace, relative paths and an empty workspace leave the run as it
// is; run itself is not changed.
func inWorkspace(run *model.Run, workspace string) *model.Run {
	if run == nil {
		return nil
	}
	b := *run
	rel := func(p string) string { return workspaceRelative(p, workspace) }
	b.CorpusRoot = rel(run.CorpusRoot)
	b.CommandSchema.Source = rel(run.CommandSchema.Source)
	b.FixtureSchema.Source = rel(run.FixtureSchema.Source)
	b.Results = make([]model.Result, len(run.Results))
	for i, r := range run.Results {
		r.Path = rel(r.Path)
		b.Results[i] = r
	}
	b.Findings = make([]model.Finding, len(run.Findings))
	for i, f := range run.Findings {
		f.Path = rel(f.Path)
		b.Findings[i] = f
	}
	if run.Summary.FailingPaths != nil {
		b.Summary.FailingPaths = make([]string, len(run.Summary.FailingPaths))
		for i, p := range run.Summary.FailingPaths {
			b.Summary.FailingPaths[i] = rel(p)
		}
	}
	// The runtime harness's implementations name the same fixtures.
	if run.Implementations != nil {
		b.Implementations = make([]model.Implementation, len(run.Implementations))
		for i, im := range run.Implementations {
			inner := inWorkspace(&model.Run{Results: im.Results, Summary: im.Summary}, workspace)
			im.Results, im.Summary = inner.Results, inner.Summary
			b.Implementations[i] = im
		}
	}
	return &b
}

// workspaceRelative is p relative to workspace when p is workspace or lies
// under it, compared as slash paths; p otherwise.
func workspaceRelative(p, workspace string) string {
	ws := path.Clean(strings.ReplaceAll(workspace, `\`, "/"))
	sp := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if workspace == "" || p == "" || !path.IsAbs(ws) || !path.IsAbs(sp) {
		return p
	}
	if sp == ws {
		return "."
	}
	if ws == "/" {
		return strings.TrimPrefix(sp, "/")
	}
	if rest, ok := strings.CutPrefix(sp, ws+"/"); ok {
		return rest
	}
	return p
}
