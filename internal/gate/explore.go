package gate

// The explore use case: exploring from a job's corpus, for the explore
// subcommand and the action's explore input (internal/explore).

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/explore"
	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// ExploreProgress is how far an exploration got, for a progress line.
type ExploreProgress = explore.Progress

// DefaultExploreCount is the number of streams explore generates unless
// told otherwise.
const DefaultExploreCount = explore.DefaultCount

// ExploreRequest is what explore is asked: the corpus whose streams it
// starts from, the implementations (Timeout bounds one answer) and the
// shard of the streams to explore, the seed, the number of streams and
// the time they may take (0: no limit), a progress callback, and the
// folder the candidates are written below ("" for none).
type ExploreRequest struct {
	Source
	Implementations []string
	Timeout         time.Duration
	Shard           *model.Shard
	Seed            int64
	Count           int
	Time            time.Duration
	Progress        func(ExploreProgress)
	Out             string
}

// Explore explores from the streams of the corpus, with the schemas and
// implementations the request names, and writes the candidates below Out.
// Candidates that cannot be written return the exploration with the
// error, a record lost (exit.Record).
func Explore(ctx context.Context, env Env, req ExploreRequest) (*model.Exploration, error) {
	r, err := Resolve(env, RunRequest{Source: req.Source, Implementations: req.Implementations, Timeout: req.Timeout, Shard: req.Shard})
	if err != nil {
		return nil, err
	}
	rep, err := exploreFrom(ctx, r, exploration{seed: req.Seed, count: req.Count, time: req.Time, progress: req.Progress})
	if err != nil {
		return nil, err
	}
	if req.Out != "" {
		return rep, exit.New(exit.Record, writeCandidates(r, req.Out, rep))
	}
	return rep, nil
}

// exploration is what one exploration is asked, and the run of its
// corpus when that has been run already (the action explores after its
// run; nil runs it here).
type exploration struct {
	seed     int64
	count    int
	time     time.Duration
	progress func(ExploreProgress)
	run      *model.Run
}

// exploreFrom explores from the streams of the job's corpus, with the
// schemas and implementations the job names.
func exploreFrom(ctx context.Context, r *Resolved, req exploration) (*model.Exploration, error) {
	cfg := r.Config
	sch, err := runner.CompileSchemas(cfg)
	if err != nil {
		return nil, err
	}
	cfg.Schemas = sch
	// The streams come from the whole corpus, whatever the shard: the
	// shard takes its part of the streams (explore.Config.Shard), so that
	// stream i is the same in every shard.
	cfg.Shard = nil
	run := req.run
	if run == nil || run.Shard != nil {
		if run, err = runner.Run(ctx, cfg); err != nil {
			return nil, err
		}
	}
	v, err := runner.NewValidator(cfg)
	if err != nil {
		return nil, err
	}
	fsys := r.corpusSource().FS
	read := func(rel string) ([]byte, error) { return fs.ReadFile(fsys, rel) }
	var seeds []explore.Seed
	for _, res := range run.Results {
		if res.IsCorpusError() {
			continue
		}
		data, err := read(res.RelPath)
		if err != nil {
			return nil, fmt.Errorf("%w: fixture %s: %w", runner.ErrInput, res.Path, err)
		}
		seeds = append(seeds, explore.Seed{Path: res.RelPath, Data: data})
	}
	var commands []string
	if len(r.Implementations) > 0 {
		if commands, err = harness.ExpandCommands(r.readInput, r.Implementations); err != nil {
			return nil, usagef("%w", err)
		}
	}
	var rules []explore.Rule
	for _, rule := range drp2.Rules() {
		rules = append(rules, explore.Rule{ID: rule.ID, Code: rule.Code, Summary: rule.Summary})
	}
	checker := drp2.New()
	rep, err := explore.Run(ctx, explore.Config{
		Seed: req.seed, Count: req.count, Time: req.time, Seeds: seeds, Validator: v, Rules: rules,
		Tracer:          func(s model.Stream, seen func(string, int)) { checker.CheckAt(ctx, s, seen) },
		Implementations: commands, Harness: harness.Config{Dir: r.WorkDir, Timeout: r.Timeout},
		Workers: r.Workers, Now: r.Config.Now, Progress: req.progress, Shard: r.Shard,
	})
	if err != nil {
		return nil, err
	}
	// Implementations' words reach the reports and the candidates.
	r.redact(rep)
	return rep, nil
}

// writeCandidates writes each disagreement's candidate below dir. A file
// already at a candidate's path is never replaced: the same bytes are
// left as they are, other bytes (a corpus fixture) keep the candidate out,
// and a link or special file there is left alone too.
func writeCandidates(r *Resolved, dir string, rep *model.Exploration) error {
	ws := r.workspace()
	for i := range rep.Disagreements {
		c := &rep.Disagreements[i].Candidate
		p := filepath.Join(dir, filepath.FromSlash(c.Path))
		shown := ws.Display(p)
		switch ws.Kind(p) {
		case workspace.Missing:
			if err := ws.WriteFile(p, c.Data); err != nil {
				return err
			}
			c.Written = "written to " + shown
		case workspace.File:
			if old, err := ws.ReadFile(p, workspace.MaxInputFile); err == nil && bytes.Equal(old, c.Data) {
				c.Written = "already written"
				continue
			}
			c.Written = "not written: another file is at " + shown
		default:
			c.Written = "not written: " + shown + " is not a regular file"
		}
	}
	return nil
}
