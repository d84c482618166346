package gate

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/model"
)

// rerunPlan is a re-run of what an earlier report did not pass: the
// report, and the fixtures of this run sent to the implementations again.
type rerunPlan struct {
	from   string
	report *model.Run
	again  map[string]bool
}

// planRerun reads the earlier report of a re-run, refuses one made of
// another corpus, selection, schema, commit or set of implementations,
// and chooses the fixtures run again: those it did not pass for every
// implementation, did not report, or whose file changed since. The
// built-in validator has checked the whole selection already, which is
// what tells a changed fixture.
func planRerun(_ context.Context, r *Resolved, o *Outcome) error {
	if r.RerunFailed == "" || o.Run == nil || r.mergeOnly {
		return nil
	}
	what := cmp.Or(r.Spelling.Rerun, "rerun-failed")
	rep, err := readResult(r, baseline.NewTracker(), under(r.WorkDir, r.RerunFailed), what, new([]byte))
	if err != nil {
		return err
	}
	commit := actionsOrigin(r.env.Getenv).commit
	if why := rerunMismatch(rep.Run, o.Run, cmp.Or(r.Commit, commit), len(o.commands)); why != "" {
		return usagef("%s %s: %s: run everything, or re-run from a report of this run", what, rep.Source, why)
	}
	o.rerun = &rerunPlan{from: rep.Source, report: rep.Run, again: runAgain(rep.Run, o.Run)}
	return nil
}

// rerunMismatch says how the earlier report was made of something else
// than this run: another shard, schema, selection of fixtures, commit or
// number of implementations (their names are checked once they have said
// them: carryOver); "" when it was not.
func rerunMismatch(rep, run *model.Run, commit string, implementations int) string {
	switch {
	case shardWords(rep.Shard) != shardWords(run.Shard):
		return fmt.Sprintf("it ran %s of the selection, this run %s", shardWords(rep.Shard), shardWords(run.Shard))
	case model.SchemaChanged(rep.CommandSchema, run.CommandSchema):
		return fmt.Sprintf("it was made with another command schema (sha256 %s there, %s here)", shortOrUnknown(rep.CommandSchema.SHA256), shortOrUnknown(run.CommandSchema.SHA256))
	case model.SchemaChanged(rep.FixtureSchema, run.FixtureSchema):
		return fmt.Sprintf("it was made with another fixture schema (sha256 %s there, %s here)", shortOrUnknown(rep.FixtureSchema.SHA256), shortOrUnknown(run.FixtureSchema.SHA256))
	case commit != "" && !sameCommit(rep.Commit, commit):
		return fmt.Sprintf("it was made on commit %s, this run on %s", cmp.Or(rep.Commit, "unknown (it records none)"), commit)
	case len(rep.Implementations) != implementations:
		return fmt.Sprintf("it ran %s (%s), this run %s", implementationCount(len(rep.Implementations)), labels(rep.Implementations), implementationCount(implementations))
	}
	return selectionMismatch(rep, run)
}

// selectionMismatch says how the earlier report ran another selection of
// fixtures: fixtures it ran that this run does not select, or (unless it
// was interrupted, and so holds a part of its selection) fixtures this
// run selects that it did not. The same fixtures with other content are
// the same selection: the edited ones are run again.
func selectionMismatch(rep, run *model.Run) string {
	if rep.CorpusDigest != "" && rep.CorpusDigest == run.CorpusDigest {
		return ""
	}
	here := make(map[string]bool, len(run.Results))
	for i := range run.Results {
		here[run.Results[i].RelPath] = true
	}
	var gone, added []string
	there := make(map[string]bool, len(rep.Results))
	for i := range rep.Results {
		p := rep.Results[i].RelPath
		there[p] = true
		if !here[p] {
			gone = append(gone, p)
		}
	}
	for i := range run.Results {
		if p := run.Results[i].RelPath; !there[p] && rep.Interrupted == nil {
			added = append(added, p)
		}
	}
	if len(gone) == 0 && len(added) == 0 {
		return ""
	}
	why := fmt.Sprintf("it ran another selection of fixtures (corpus sha256 %s there, %s here)", shortOrUnknown(rep.CorpusDigest), shortOrUnknown(run.CorpusDigest))
	if len(gone) > 0 {
		why += fmt.Sprintf("; %d of its fixtures are not selected here, %s first", len(gone), gone[0])
	}
	if len(added) > 0 {
		why += fmt.Sprintf("; %d fixtures selected here are not in it, %s first", len(added), added[0])
	}
	return why
}

func shardWords(sh *model.Shard) string {
	if sh == nil {
		return "all"
	}
	return fmt.Sprintf("shard %d/%d", sh.Index, sh.Count)
}

// sameCommit says whether two commits' hex names name one commit, either
// of them abbreviated.
func sameCommit(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	return a != "" && b != "" && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
}

func implementationCount(n int) string {
	if n == 1 {
		return "1 implementation"
	}
	return fmt.Sprintf("%d implementations", n)
}

func labels(impls []model.Implementation) string {
	var out []string
	for i := range impls {
		out = append(out, impls[i].Label())
	}
	return cmp.Or(strings.Join(out, ", "), "none")
}

// runAgain is the set of this run's fixtures to send the implementations
// again: every one the earlier report did not pass everywhere (the
// built-in validator and every implementation: a failure, a harness or
// corpus error, a fixture not claimed or skipped, one it did not report),
// or that changed since (another file digest), or that the validator does
// not pass now.
func runAgain(rep, run *model.Run) map[string]bool {
	passed := map[string]string{} // corpus path → file digest, of the fixtures passed everywhere
	for i := range rep.Results {
		if res := &rep.Results[i]; res.Passed && res.Digest.File != "" {
			passed[res.RelPath] = res.Digest.File
		}
	}
	for i := range rep.Implementations {
		ok := map[string]bool{}
		for _, res := range rep.Implementations[i].Results {
			ok[res.RelPath] = res.Passed
		}
		for p := range passed {
			if !ok[p] {
				delete(passed, p)
			}
		}
	}
	again := map[string]bool{}
	for i := range run.Results {
		res := &run.Results[i]
		if sum, ok := passed[res.RelPath]; !ok || sum != res.Digest.File || !res.Passed {
			again[res.RelPath] = true
		}
	}
	return again
}

// sentAgain is the run the implementations are sent: the fixtures of the
// re-run only, or the whole run when it is none.
func (p *rerunPlan) sentAgain(run *model.Run) *model.Run {
	if p == nil {
		return run
	}
	sub := *run
	sub.Results = slices.DeleteFunc(slices.Clone(run.Results), func(res model.Result) bool { return !p.again[res.RelPath] })
	return &sub
}

// carryOver completes each implementation's results with those of the
// earlier report for the fixtures not run again, marked as carried over,
// and records the re-run. An implementation is the report's when it says
// the same name and version (or, nameless, has the same command); one
// that never said who it is carries nothing, and fails as it is.
func carryOver(_ context.Context, r *Resolved, o *Outcome) error {
	p := o.rerun
	if p == nil {
		return nil
	}
	order := make(map[string]int, len(o.Run.Results))
	for i := range o.Run.Results {
		order[o.Run.Results[i].RelPath] = i
	}
	used := make([]bool, len(p.report.Implementations))
	for i := range o.Run.Implementations {
		im := &o.Run.Implementations[i]
		j := slices.IndexFunc(p.report.Implementations, func(e model.Implementation) bool { return sameImplementation(&e, im) })
		switch {
		case j >= 0 && !used[j]:
			used[j] = true
			p.carry(im, &p.report.Implementations[j], order, o.Run.Summary.Discovered)
		case im.Name == "" && im.Error != "":
		default:
			return usagef("%s %s: it ran %s, this run %s: run everything, or re-run from a report of these implementations",
				cmp.Or(r.Spelling.Rerun, "rerun-failed"), p.from, labels(p.report.Implementations), labels(o.Run.Implementations))
		}
	}
	for path, data := range p.report.FixtureReadbacks {
		if _, ok := order[path]; ok && !p.again[path] {
			if o.Run.FixtureReadbacks == nil {
				o.Run.FixtureReadbacks = map[string][][]byte{}
			}
			o.Run.FixtureReadbacks[path] = data
		}
	}
	o.Run.Rerun = &model.Rerun{From: p.from, Ran: len(p.again), Carried: len(o.Run.Results) - len(p.again)}
	if len(o.Run.Implementations) == 0 {
		o.Run.Rerun.Ran, o.Run.Rerun.Carried = len(o.Run.Results), 0
	}
	return nil
}

func sameImplementation(a, b *model.Implementation) bool {
	if a.Name == "" || b.Name == "" {
		return a.Name == b.Name && a.Command == b.Command
	}
	return a.Name == b.Name && a.Version == b.Version
}

// carry adds to im the results of from for the fixtures of the run not
// run again, with their Level 2 checks and readbacks, in the run's order.
func (p *rerunPlan) carry(im, from *model.Implementation, order map[string]int, discovered int) {
	for _, res := range from.Results {
		if _, ok := order[res.RelPath]; !ok || p.again[res.RelPath] {
			continue
		}
		res.Carried = true
		im.Results = append(im.Results, res)
		if v, ok := from.Level2[res.RelPath]; ok {
			if im.Level2 == nil {
				im.Level2 = map[string]bool{}
			}
			im.Level2[res.RelPath] = v
		}
		if v, ok := from.Readbacks[res.RelPath]; ok {
			if im.Readbacks == nil {
				im.Readbacks = map[string][][]byte{}
			}
			im.Readbacks[res.RelPath] = v
		}
	}
	slices.SortStableFunc(im.Results, func(a, b model.Result) int { return cmp.Compare(order[a.RelPath], order[b.RelPath]) })
	im.Summary = model.Summarize(discovered, im.Results, nil)
}

// shortOrUnknown is model.ShortSum, or "unknown" for a digest not recorded.
func shortOrUnknown(sum string) string { return cmp.Or(model.ShortSum(sum), "unknown") }
