package action

import (
	"bytes"
	"context"

	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report"
)

// actionSeed is the seed of the action's explore input: one seed, so that
// every run of a workflow explores the same streams and a new
// disagreement means a changed implementation, not luck.
const actionSeed = 1

// actionExplore is the action's explore input: the report as a section of
// the job summary, and the candidates written to the explore-out folder
// when one is given. Nothing is uploaded.
func actionExplore(ctx context.Context, r *gate.Resolved, in Inputs, run *model.Run) (string, error) {
	if len(in.Job.Results) > 0 {
		run = nil // merged reports hold fixtures of other corpora: explore runs its own
	}
	rep, err := gate.Explore(ctx, r, gate.ExploreRequest{Seed: actionSeed, Count: in.Explore, Run: run})
	if err != nil {
		return "", err
	}
	if in.ExploreOut != "" {
		err = gate.WriteCandidates(r, in.ExploreOut, rep)
	}
	var b bytes.Buffer
	b.WriteString("\n")
	if werr := report.Lookup("markdown").WriteExplore(&b, rep); werr != nil {
		return "", werr
	}
	return b.String(), err
}
