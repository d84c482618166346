package gate

import (
	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

// Diff compares two JSON reports fixture by fixture: the diff use case.
// It returns HEAD carrying the comparison, and whether HEAD regressed by
// the one rule of fail-on regressions (regressions), or an implementation
// has new failures against itself on the base.
func Diff(env Env, basePath, headPath string) (head *model.Run, regressed bool, err error) {
	ws := workspace.New(env.WorkDir, false)
	base, err := baseline.ReadReportFile(ws, basePath, env.ReadReport)
	if err != nil {
		return nil, false, usagef("%w", err)
	}
	if head, err = baseline.ReadReportFile(ws, headPath, env.ReadReport); err != nil {
		return nil, false, usagef("%w", err)
	}
	head.Comparison = baseline.Compare(base, head, basePath)
	head.Comparison.Implementations = baseline.CompareImplementations(base, head, false)
	r, added := regressions(head)
	for _, d := range head.Comparison.Implementations {
		added += d.NewFailures()
	}
	// Judged whole, shown bounded, as a run is.
	return bound.Run(head), r+added > 0, nil
}
