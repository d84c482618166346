package explain

import (
	"path"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// InWorkspace returns a copy of run whose paths are relative to workspace
// wherever they lie under it: fixture paths, finding paths, the failing
// paths, the corpus root and the schema sources. In a Docker action the
// workspace is mounted at /github/workspace; a report that names that
// path names a file nobody else can find. Paths outside the workspace,
// relative paths and an empty workspace leave the run as it is; run
// itself is not changed.
func InWorkspace(run *model.Run, workspace string) *model.Run {
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
			inner := InWorkspace(&model.Run{Results: im.Results, Summary: im.Summary}, workspace)
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
