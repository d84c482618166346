package cli

// The explore subcommand and the action's explore input: generated
// streams on which implementations disagree with the validator, found,
// minimized and written as candidate fixtures (internal/explore).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report"
)

// exploreOptions are what explore adds to a Job.
type exploreOptions struct {
	seed   int64
	count  int
	time   time.Duration
	out    string
	format *FormatFlag
}

func exploreCommand(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures explore"
	var job gate.Job
	var summary string
	var o exploreOptions
	var impls stringList
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &job)
	fs.Var(&impls, "implementation", "the DRP2 implementation started by `CMD` (a command line speaking docs/harness.md; repeatable; @FILE reads one command a line)")
	fs.DurationVar(&job.Timeout, "timeout", gate.DefaultTimeout, "longest wait for an implementation's answer to one stream")
	fs.Int64Var(&o.seed, "seed", 1, "the `SEED` the streams are generated from: one seed, one sequence of streams")
	fs.IntVar(&o.count, "count", gate.DefaultExploreCount, "number of streams to generate")
	fs.DurationVar(&o.time, "time", 0, "stop generating after `DURATION` (default: no limit)")
	fs.Var(shardValue{&job}, "shard", "explore only the `K/N` part of the --count streams: stream i is in shard i mod N + 1")
	fs.StringVar(&o.out, "out", "", "write the candidate fixtures below `DIR`, in the corpus layout (default: none written)")
	o.format = addFormatFlag(fs, report.KindExplore)
	fs.StringVar(&summary, "summary", "", "also append the Markdown report to `FILE` (as $GITHUB_STEP_SUMMARY expects)")
	if err := parseNoArgs(fs, args, &job); err != nil {
		return flagError(name, err)
	}
	job.Implementations = impls
	if o.count <= 0 || job.Timeout <= 0 || o.time < 0 {
		return usagef(name, "--count and --timeout must be positive, --time not negative")
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	r, err := gate.Resolve(ge, job)
	if err != nil {
		return fail(name, err)
	}
	var progress func(gate.ExploreProgress)
	terminal := env.IsTerminal != nil && env.IsTerminal()
	// The progress line is rewritten in place, so it cannot wait for the
	// end of a line as the redacting writer does; it holds only numbers.
	tty := env.RawStdout()
	if terminal && tty != nil {
		progress = func(p gate.ExploreProgress) {
			fmt.Fprintf(tty, "\rexplore: %d/%d streams, %d disagreed, %d signatures, %.1f s\x1b[K",
				p.Streams, p.Count, p.Disagreements, p.Signatures, p.Elapsed.Seconds())
		}
	}
	rep, err := gate.Explore(ctx, r, gate.ExploreRequest{Seed: o.seed, Count: o.count, Time: o.time, Progress: progress})
	if progress != nil {
		fmt.Fprint(tty, "\r\x1b[K")
	}
	if err != nil {
		return fail(name, err)
	}
	fileErr := writeExploreFiles(env, name, r, o, summary, rep)
	if err := o.format.Format().ToLog(env.Stdout, func(w io.Writer) error { return o.format.Format().WriteExplore(w, rep) }); err != nil {
		// Standard output failing is the tool's own failure: its exit
		// code wins over a file not written.
		return exit.New(exit.Tool, errors.Join(fileErr, fail(name, err)))
	}
	return fileErr
}

// writeExploreFiles writes the candidates (--out) and the Markdown report
// (--summary); a file that cannot be written is a record lost (exit code
// 2), after the rest.
func writeExploreFiles(env Env, name string, r *gate.Resolved, o exploreOptions, summary string, rep *gate.Exploration) error {
	var errs []error
	if o.out != "" {
		if err := gate.WriteCandidates(r, o.out, rep); err != nil {
			errs = append(errs, fail(name, exit.Errorf(exit.Record, "--out %s: %w", o.out, err)))
		}
	}
	if summary != "" {
		// Appended as run's --summary is, to the same kind of file.
		var b bytes.Buffer
		err := report.Lookup("markdown").WriteExplore(&b, rep)
		if err == nil {
			err = gate.SaveReport(r.WorkDir, false)(summary, env.Redactor().Bytes(b.Bytes()), true)
		}
		if err != nil {
			errs = append(errs, fail(name, exit.Errorf(exit.Record, "--summary: %w", err)))
		}
	}
	return errors.Join(errs...)
}
