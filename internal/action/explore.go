package action

import (
	"bytes"
	"context"

	"github.com/drp2/drp2-fixtures/internal/explore"
	"github.com/drp2/drp2-fixtures/internal/frontend"
	"github.com/drp2/drp2-fixtures/internal/gate"
)

// actionSeed is the seed of the action's explore input: one seed, so that
// every run of a workflow explores the same streams and a new
// disagreement means a changed implementation, not luck.
const actionSeed = 1

// actionExplore is the action's explore input: the report as a section of
// the job summary, and the candidates written to the explore-out folder
// when one is given. Nothing is uploaded.
func actionExplore(ctx context.Context, r *gate.Resolved, in Inputs) (string, error) {
	rep, err := frontend.Explore(ctx, r, actionSeed, in.Explore, 0, nil)
	if err != nil {
		return "", err
	}
	if in.ExploreOut != "" {
		err = frontend.WriteCandidates(r, in.ExploreOut, rep)
	}
	var b bytes.Buffer
	b.WriteString("\n")
	if werr := explore.WriteMarkdown(&b, rep); werr != nil {
		return "", werr
	}
	return b.String(), err
}
