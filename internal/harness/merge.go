package harness

import (
	"fmt"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Report is one run to merge and where it came from, for messages.
type Report struct {
	Source string
	Run    *model.Run
}

// Merge joins the runs of several jobs or shards over one corpus into one
// run: the union of their fixtures in discovery order (lexical by corpus
// path), of their findings, and of their implementations, each
// implementation's results joined the same way. Implementations are the
// same when they share name and version (their command when they have no
// name), so the shards of one implementation become one.
//
// Reports of different schemas cannot be merged, nor two reports that
// disagree on one fixture: either would make one report claim what no run
// showed. The same result twice is kept once.
func Merge(reports []Report) (*model.Run, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	first := reports[0]
	out := &model.Run{CorpusRoot: first.Run.CorpusRoot, ToolVersion: first.Run.ToolVersion,
		CommandSchema: first.Run.CommandSchema, FixtureSchema: first.Run.FixtureSchema, Started: first.Run.Started,
		Commit: first.Run.Commit, Repository: first.Run.Repository}
	base := newUnion()
	findings := map[model.Finding]bool{}
	impls := map[string]*implUnion{}
	var order []string
	discovered := 0
	for _, rep := range reports {
		r := rep.Run
		if !sameSchema(r.CommandSchema, out.CommandSchema) || !sameSchema(r.FixtureSchema, out.FixtureSchema) {
			return nil, fmt.Errorf("%s was made with other schemas than %s (command schema %s, fixture schema %s): merge reports of one corpus and one pair of schemas",
				rep.Source, first.Source, schemaSum(r.CommandSchema), schemaSum(r.FixtureSchema))
		}
		discovered = max(discovered, r.Summary.Discovered)
		// Shards run side by side: the run took as long as the longest.
		if r.Duration > out.Duration {
			out.Duration = r.Duration
		}
		if err := base.add(rep.Source, r.Results); err != nil {
			return nil, err
		}
		for p, data := range r.FixtureReadbacks {
			if out.FixtureReadbacks == nil {
				out.FixtureReadbacks = map[string][][]byte{}
			}
			out.FixtureReadbacks[p] = data
		}
		for _, f := range r.Findings {
			if !findings[f] {
				findings[f] = true
				out.Findings = append(out.Findings, f)
			}
		}
		for i := range r.Implementations {
			im := &r.Implementations[i]
			key := im.Command
			if im.Name != "" {
				key = "\x00" + im.Name + "\x00" + im.Version
			}
			u := impls[key]
			if u == nil {
				u = &implUnion{Implementation: model.Implementation{Command: im.Command, Name: im.Name, Version: im.Version,
					DRP2Versions: im.DRP2Versions, Executes: im.Executes, Protocol: im.Protocol, Phases: im.Phases,
					Adapter: im.Adapter, Capabilities: im.Capabilities}, results: newUnion()}
				impls[key] = u
				order = append(order, key)
			}
			if err := u.add(rep.Source, im); err != nil {
				return nil, err
			}
		}
	}
	out.Results = base.sorted()
	sort.SliceStable(out.Findings, func(i, j int) bool { return out.Findings[i].Path < out.Findings[j].Path })
	out.Summary = model.Summarize(discovered, out.Results, out.Findings)
	for _, key := range order {
		u := impls[key]
		u.Results = u.results.sorted()
		u.Stderr = keepEnd(strings.Join(u.stderr, "\n"), DefaultMaxStderr, false)
		u.Summary = model.Summarize(discovered, u.Results, nil)
		out.Implementations = append(out.Implementations, u.Implementation)
	}
	return out, nil
}

// union collects results by corpus path.
type union struct {
	by   map[string]model.Result
	from map[string]string
}

func newUnion() *union { return &union{by: map[string]model.Result{}, from: map[string]string{}} }

func (u *union) add(source string, results []model.Result) error {
	for _, r := range results {
		prev, seen := u.by[r.RelPath]
		if !seen {
			u.by[r.RelPath], u.from[r.RelPath] = r, source
			continue
		}
		if why := differ(&prev, &r); why != "" {
			return fmt.Errorf("%s and %s disagree on %s (%s): merge reports of disjoint shards, or of runs of the same corpus",
				u.from[r.RelPath], source, r.RelPath, why)
		}
	}
	return nil
}

func (u *union) sorted() []model.Result {
	out := make([]model.Result, 0, len(u.by))
	for _, r := range u.by {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RelPath < out[j].RelPath })
	return out
}

// differ says how two results for one fixture differ in what they claim:
// the fixture's content or the verdict.
func differ(a, b *model.Result) string {
	switch {
	case a.Digest.File != "" && b.Digest.File != "" && a.Digest.File != b.Digest.File:
		return "the fixture's content differs"
	case a.Passed != b.Passed:
		return "passed in one, failed in the other"
	case a.Actual.Outcome != b.Actual.Outcome || a.Actual.Phase != b.Actual.Phase || a.Actual.Code != b.Actual.Code ||
		!sameIndex(a.Actual.CommandIndex, b.Actual.CommandIndex):
		return "the verdicts differ"
	}
	return ""
}

func sameIndex(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// implUnion joins one implementation's reports.
type implUnion struct {
	model.Implementation
	results *union
	stderr  []string
}

func (u *implUnion) add(source string, im *model.Implementation) error {
	if err := u.results.add(source, im.Results); err != nil {
		return fmt.Errorf("implementation %s: %w", im.Label(), err)
	}
	if u.Error == "" {
		u.Error = im.Error
	}
	u.Executes = u.Executes || im.Executes
	u.Restarts += im.Restarts
	u.Duration += im.Duration
	if im.Stderr != "" {
		u.stderr = append(u.stderr, fmt.Sprintf("[%s]\n%s", source, im.Stderr))
	}
	if len(im.Level2) > 0 && u.Level2 == nil {
		u.Level2 = map[string]bool{}
	}
	for k, v := range im.Level2 {
		u.Level2[k] = v
	}
	if len(im.Readbacks) > 0 && u.Readbacks == nil {
		u.Readbacks = map[string][][]byte{}
	}
	for k, v := range im.Readbacks {
		u.Readbacks[k] = v
	}
	if u.Adapter == nil {
		u.Adapter = im.Adapter
	}
	return nil
}

// sameSchema reports whether two reports ran one schema: the same bytes,
// and the same closure when both recorded one (a report written before
// closures has none).
func sameSchema(a, b model.SchemaSource) bool {
	return a.SHA256 == b.SHA256 && (a.Closure == "" || b.Closure == "" || a.Closure == b.Closure)
}

// schemaSum is a schema's digest as an error names it: of its closure when
// recorded.
func schemaSum(s model.SchemaSource) string {
	if s.Closure != "" {
		return "closure " + short(s.Closure)
	}
	return short(s.SHA256)
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	if sum == "" {
		return "unknown"
	}
	return sum
}
