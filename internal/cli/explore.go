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

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/report"
)

func exploreCommand(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures explore"
	var req gate.ExploreRequest
	var summary string
	var format *FormatFlag
	var impls stringList
	fs := newFlagSet(name, name+" [flags]", env)
	corpusFlags(fs, &req.Source)
	fs.Var(&impls, "implementation", "the DRP2 implementation started by `CMD` (a command line speaking docs/harness.md; repeatable; @FILE reads one command a line)")
	fs.DurationVar(&req.Timeout, "timeout", gate.DefaultTimeout, "longest wait for an implementation's answer to one stream")
	fs.Int64Var(&req.Seed, "seed", 1, "the `SEED` the streams are generated from: one seed, one sequence of streams")
	fs.IntVar(&req.Count, "count", gate.DefaultExploreCount, "number of streams to generate")
	fs.DurationVar(&req.Time, "time", 0, "stop generating after `DURATION` (default: no limit)")
	parsedFlag(fs, "shard", "explore only the `K/N` part of the --count streams: stream i is in shard i mod N + 1", &req.Shard, gate.ParseShard)
	fs.StringVar(&req.Out, "out", "", "write the candidate fixtures below `DIR`, in the corpus layout (default: none written)")
	format = addFormatFlag(fs, report.KindExplore)
	fs.StringVar(&summary, "summary", "", "also append the Markdown report to `FILE` (as $GITHUB_STEP_SUMMARY expects)")
	if err := parseNoArgs(fs, args, &req.Source); err != nil {
		return flagError(name, err)
	}
	req.Implementations = impls
	if req.Count <= 0 || req.Timeout <= 0 || req.Time < 0 {
		return usagef(name, "--count and --timeout must be positive, --time not negative")
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	// The progress line is rewritten in place, so it cannot wait for the
	// end of a line as the redacting writer does; it holds only numbers.
	tty, drawn := env.RawStdout(), false
	if env.IsTerminal != nil && env.IsTerminal() && tty != nil {
		req.Progress = func(p gate.ExploreProgress) {
			fmt.Fprintf(tty, "\rexplore: %d/%d streams, %d disagreed, %d signatures, %.1f s\x1b[K",
				p.Streams, p.Count, p.Disagreements, p.Signatures, p.Elapsed.Seconds())
			drawn = true
		}
	}
	rep, err := gate.Explore(ctx, ge, req)
	if drawn {
		fmt.Fprint(tty, "\r\x1b[K")
	}
	if rep == nil {
		return fail(name, err)
	}
	if err != nil {
		// The candidates could not be written below --out.
		err = fail(name, fmt.Errorf("--out %s: %w", req.Out, err))
	}
	fileErr := errors.Join(err, writeSummary(env, name, ge.WorkDir, summary, func(w io.Writer) error { return report.Lookup("markdown").WriteExplore(w, rep) }))
	if err := format.Format().ToLog(env.Stdout, func(w io.Writer) error { return format.Format().WriteExplore(w, rep) }); err != nil {
		// Standard output failing is the tool's own failure: its exit
		// code wins over a file not written.
		return exit.New(exit.Tool, errors.Join(fileErr, fail(name, err)))
	}
	return fileErr
}

// writeSummary appends the Markdown report that markdown writes to
// summary (--summary), as run's --summary is, to the same kind of file;
// one that cannot be written is a record lost (exit code 2), after the
// rest.
func writeSummary(env Env, name, workDir, summary string, markdown func(io.Writer) error) error {
	if summary == "" {
		return nil
	}
	var b bytes.Buffer
	err := markdown(&b)
	if err == nil {
		err = gate.SaveReport(workDir, false)(summary, env.Redactor().Bytes(b.Bytes()), true)
	}
	if err != nil {
		return fail(name, exit.Errorf(exit.Record, "--summary: %w", err))
	}
	return nil
}
