package cli

// The explore subcommand and the action's explore input: generated
// streams on which implementations disagree with the validator, found,
// minimized and written as candidate fixtures (internal/explore).

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/drp2/drp2-fixtures/internal/explore"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// exploreOptions are what explore adds to a Job.
type exploreOptions struct {
	seed   int64
	count  int
	time   time.Duration
	out    string
	format string
}

func exploreCommand(ctx context.Context, args []string, env Env) int {
	const name = "drp2-fixtures explore"
	var job gate.Job
	var summary string
	var o exploreOptions
	var impls stringList
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &job)
	fs.Var(&impls, "implementation", "the DRP2 implementation started by `CMD` (a command line speaking docs/harness.md; repeatable; @FILE reads one command a line)")
	fs.DurationVar(&job.Timeout, "timeout", harness.DefaultTimeout, "longest wait for an implementation's answer to one stream")
	fs.Int64Var(&o.seed, "seed", 1, "the `SEED` the streams are generated from: one seed, one sequence of streams")
	fs.IntVar(&o.count, "count", explore.DefaultCount, "number of streams to generate")
	fs.DurationVar(&o.time, "time", 0, "stop generating after `DURATION` (default: no limit)")
	fs.StringVar(&o.out, "out", "", "write the candidate fixtures below `DIR`, in the corpus layout (default: none written)")
	fs.StringVar(&o.format, "format", "text", "standard output format: text, json or markdown")
	fs.StringVar(&summary, "summary", "", "also append the Markdown report to `FILE` (as $GITHUB_STEP_SUMMARY expects)")
	if err := parseNoArgs(fs, args, &job); err != nil {
		return flagError(name, err, env)
	}
	job.Implementations = impls
	write := map[string]func(io.Writer, *explore.Report) error{
		"text": explore.WriteText, "json": explore.WriteJSON, "markdown": explore.WriteMarkdown}[o.format]
	switch {
	case write == nil:
		fmt.Fprintf(env.Stderr, "%s: --format %q: want text, json or markdown\n", name, o.format)
		return ExitUsage
	case o.count <= 0 || job.Timeout <= 0 || o.time < 0:
		fmt.Fprintf(env.Stderr, "%s: --count and --timeout must be positive, --time not negative\n", name)
		return ExitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return exitFor(err)
	}
	r, err := resolve(env, job)
	if err != nil {
		return fail(err)
	}
	var progress func(explore.Progress)
	terminal := env.IsTerminal != nil && env.IsTerminal()
	// The progress line is rewritten in place, so it cannot wait for the
	// end of a line as the redacting writer does; it holds only numbers.
	tty := env.rawStdout
	if terminal && tty != nil {
		progress = func(p explore.Progress) {
			fmt.Fprintf(tty, "\rexplore: %d/%d streams, %d disagreed, %d signatures, %.1f s\x1b[K",
				p.Streams, p.Count, p.Disagreements, p.Signatures, p.Elapsed.Seconds())
		}
	}
	rep, err := runExplore(ctx, r, o, progress)
	if progress != nil {
		fmt.Fprint(tty, "\r\x1b[K")
	}
	if err != nil {
		return fail(err)
	}
	code := writeExploreFiles(env, name, r, o, summary, rep)
	if err := write(env.Stdout, rep); err != nil {
		return fail(err)
	}
	return code
}

// writeExploreFiles writes the candidates (--out) and the Markdown report
// (--summary); a file that cannot be written is exit code 2, after the
// rest.
func writeExploreFiles(env Env, name string, r *gate.Resolved, o exploreOptions, summary string, rep *explore.Report) int {
	code := ExitOK
	if o.out != "" {
		if err := writeCandidates(r, o.out, rep); err != nil {
			fmt.Fprintf(env.Stderr, "%s: --out %s: %v\n", name, o.out, err)
			code = ExitUsage
		}
	}
	if summary != "" {
		var b bytes.Buffer
		err := explore.WriteMarkdown(&b, rep)
		if err == nil {
			err = workspace.Append(workspace.Resolve(r.WorkDir, summary), b.Bytes())
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: --summary: %v\n", name, err)
			code = ExitUsage
		}
	}
	return code
}

// runExplore explores from the streams of the job's corpus, with the
// schemas and implementations the job names.
func runExplore(ctx context.Context, r *gate.Resolved, o exploreOptions, progress func(explore.Progress)) (*explore.Report, error) {
	cfg := r.Config
	sch, err := runner.CompileSchemas(cfg)
	if err != nil {
		return nil, err
	}
	cfg.Schemas = sch
	run, err := runner.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	v, err := runner.NewValidator(cfg)
	if err != nil {
		return nil, err
	}
	fsys := r.CorpusSource().FS
	read := func(rel string) ([]byte, error) { return fs.ReadFile(fsys, rel) }
	var seeds []explore.Seed
	for _, res := range run.Results {
		if res.IsCorpusError() {
			continue
		}
		data, err := read(res.RelPath)
		if err != nil {
			return nil, fmt.Errorf("%w: fixture %s: %v", runner.ErrInput, res.Path, err)
		}
		seeds = append(seeds, explore.Seed{Path: res.RelPath, Data: data})
	}
	var commands []string
	if len(r.Implementations) > 0 {
		if commands, err = harness.ExpandCommands(r.ReadInput, r.Implementations); err != nil {
			return nil, usageErrorf("%v", err)
		}
	}
	var rules []explore.Rule
	for _, rule := range drp2.Rules() {
		rules = append(rules, explore.Rule{ID: rule.ID, Code: rule.Code, Summary: rule.Summary})
	}
	checker := drp2.New()
	rep, err := explore.Run(ctx, explore.Config{
		Seed: o.seed, Count: o.count, Time: o.time, Seeds: seeds, Validator: v, Rules: rules,
		Tracer:          func(s model.Stream, seen func(string)) { checker.Check(ctx, s, seen) },
		Implementations: commands, Harness: harness.Config{Dir: r.WorkDir, Timeout: r.Timeout},
		Workers: r.Workers, Now: r.Config.Now, Progress: progress,
	})
	if err != nil {
		return nil, err
	}
	// Implementations' words reach the reports and the candidates.
	r.Redact(rep)
	return rep, nil
}

// writeCandidates writes each disagreement's candidate below dir. A file
// already at a candidate's path is never replaced: the same bytes are
// left as they are, other bytes (a corpus fixture) keep the candidate out,
// and a link or special file there is left alone too.
func writeCandidates(r *gate.Resolved, dir string, rep *explore.Report) error {
	ws := r.Workspace()
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

// actionSeed is the seed of the action's explore input: one seed, so that
// every run of a workflow explores the same streams and a new
// disagreement means a changed implementation, not luck.
const actionSeed = 1

// actionExplore is the action's explore input: the report as a section of
// the job summary, and the candidates written to the explore-out folder
// when one is given. Nothing is uploaded.
func actionExplore(ctx context.Context, r *gate.Resolved, in Inputs) (string, error) {
	rep, err := runExplore(ctx, r, exploreOptions{seed: actionSeed, count: in.Explore}, nil)
	if err != nil {
		return "", err
	}
	if in.ExploreOut != "" {
		err = writeCandidates(r, in.ExploreOut, rep)
	}
	var b bytes.Buffer
	b.WriteString("\n")
	if werr := explore.WriteMarkdown(&b, rep); werr != nil {
		return "", werr
	}
	return b.String(), err
}
