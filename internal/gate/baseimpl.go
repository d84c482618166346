package gate

import (
	"context"
	"io/fs"
	"slices"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/model"
)

// baseImplementations gives a base commit or folder, which the validator
// alone ran, the results of the head's implementations on its fixtures:
// the same implementation given the same bytes gives the same verdict, so a
// fixture whose file is the same in base and head takes the head's result,
// and only the fixtures that differ (or that the head has not) are sent to
// the implementation, read from the base's corpus.
func (r *Resolved) baseImplementations(ctx context.Context, base, head *model.Run, corpus fs.FS) ([]model.Implementation, error) {
	headAt := map[string]string{}
	for i := range head.Results {
		headAt[head.Results[i].RelPath] = head.Results[i].Digest.File
	}
	sub := *base
	sub.Results = nil
	for _, res := range base.Results {
		if sum, ok := headAt[res.RelPath]; !ok || sum == "" || sum != res.Digest.File || res.IsCorpusError() {
			sub.Results = append(sub.Results, res)
		}
	}
	own, err := harness.ExpandCommands(r.readInput, r.Implementations)
	if err != nil {
		return nil, usagef("%w", err)
	}
	// Only the implementations this job started: one merged from another
	// job's report runs elsewhere (CompareImplementations leaves it out).
	var mine []*model.Implementation
	var commands []string
	for i := range head.Implementations {
		if him := &head.Implementations[i]; slices.Contains(own, him.Command) {
			mine = append(mine, him)
			commands = append(commands, him.Command)
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	var ran []model.Implementation
	if len(sub.Results) > 0 {
		read := func(rel string) ([]byte, error) { return fs.ReadFile(corpus, rel) }
		cfg := harness.Config{Commands: commands, Dir: r.WorkDir, Timeout: r.Timeout, Now: r.Config.Now}
		if ran, err = harness.Run(ctx, cfg, &sub, read); err != nil {
			return nil, err
		}
	}
	out := make([]model.Implementation, len(mine))
	for i, him := range mine {
		bim := model.Implementation{Command: him.Command, Name: him.Name, Version: him.Version, Phases: him.Phases}
		fresh := map[string]model.Result{}
		if ran != nil {
			bim.Name, bim.Version, bim.Error = ran[i].Name, ran[i].Version, ran[i].Error
			for _, res := range ran[i].Results {
				fresh[res.RelPath] = res
			}
		}
		same := map[string]model.Result{}
		for _, res := range him.Results {
			same[res.RelPath] = res
		}
		for _, res := range base.Results {
			if f, ok := fresh[res.RelPath]; ok {
				bim.Results = append(bim.Results, f)
			} else if s, ok := same[res.RelPath]; ok {
				bim.Results = append(bim.Results, s)
			}
		}
		bim.Summary = model.Summarize(base.Summary.Discovered, bim.Results, nil)
		out[i] = bim
	}
	return out, nil
}
