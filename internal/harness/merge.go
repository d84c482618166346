package harness

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// interruptedOf is the interruption of the first interrupted report: the
// fixtures an interrupted part did not run are judged nowhere, so the
// merge is interrupted too, as that part says. Nil when none was.
func interruptedOf(reports []Report) *model.Interruption {
	for _, rep := range reports {
		if in := rep.Run.Interrupted; in != nil {
			c := *in
			return &c
		}
	}
	return nil
}

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
// showed. The same result twice is kept once. Shards (reports of runs
// with --shard) must moreover make one whole (checkShards), and then merge
// into the report of the unsharded run, timings aside.
func Merge(reports []Report) (*model.Run, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	if err := checkShards(reports); err != nil {
		return nil, err
	}
	first := reports[0]
	out := &model.Run{CorpusRoot: first.Run.CorpusRoot, ToolVersion: first.Run.ToolVersion,
		CommandSchema: first.Run.CommandSchema, FixtureSchema: first.Run.FixtureSchema, Started: first.Run.Started,
		Commit: first.Run.Commit, Repository: first.Run.Repository, Interrupted: interruptedOf(reports)}
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
		base.add(rep.Source, r.Results)
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
			key := implKey(im)
			u := impls[key]
			if u == nil {
				u = &implUnion{Implementation: model.Implementation{Command: im.Command, Name: im.Name, Version: im.Version,
					DRP2Versions: im.DRP2Versions, Executes: im.Executes, Protocol: im.Protocol, Phases: im.Phases,
					Adapter: im.Adapter, Capabilities: im.Capabilities}, results: newUnion()}
				impls[key] = u
				order = append(order, key)
			}
			u.add(rep.Source, im)
		}
	}
	var err error
	if out.Results, err = base.sorted(); err != nil {
		return nil, err
	}
	out.CorpusDigest = mergedDigest(reports, out.Results)
	// A name two shards use is a duplicate neither shard saw: found again
	// over the merged results, as the unsharded run finds it.
	out.Findings = slices.DeleteFunc(out.Findings, func(f model.Finding) bool { return f.Kind == model.FindingDuplicateName })
	out.Findings = append(out.Findings, runner.DuplicateNames(out.Results)...)
	sort.SliceStable(out.Findings, func(i, j int) bool { return out.Findings[i].Path < out.Findings[j].Path })
	out.Summary = model.Summarize(discovered, out.Results, out.Findings)
	for _, key := range order {
		u := impls[key]
		if u.Results, err = u.results.sorted(); err != nil {
			return nil, fmt.Errorf("implementation %s: %w", u.Label(), err)
		}
		u.Stderr = keepEnd(strings.Join(u.stderr, "\n"), DefaultMaxStderr, false)
		u.Summary = model.Summarize(discovered, u.Results, nil)
		out.Implementations = append(out.Implementations, u.Implementation)
	}
	return out, nil
}

// implKey is what makes two reports' implementations one: the same name
// and version, or the same command when it never said its name.
func implKey(im *model.Implementation) string {
	if im.Name != "" {
		return "\x00" + im.Name + "\x00" + im.Version
	}
	return im.Command
}

// union collects the results of several reports by corpus path. Each
// report's results are in path order (a run writes them so; any others
// are sorted first), so their union is a merge of sorted lists: a map of
// every path, and a sort of all the results, were a fifth of a merge of
// four shards of 50,000 fixtures.
type union struct {
	sources []string
	runs    [][]placed
}

// placed is a report's result and the index of its report's source.
type placed struct {
	result *model.Result
	source int
}

func newUnion() *union { return &union{} }

func (u *union) add(source string, results []model.Result) {
	u.runs = append(u.runs, placedRun(results, len(u.sources)))
	u.sources = append(u.sources, source)
}

// placedRun is a report's results as a run for inPathOrder.
func placedRun(results []model.Result, source int) []placed {
	run := make([]placed, len(results))
	for i := range results {
		run[i] = placed{result: &results[i], source: source}
	}
	return run
}

// sorted is the results in corpus path order, each path once: the result
// of the first report that holds it, which no other may contradict.
func (u *union) sorted() ([]model.Result, error) {
	all := inPathOrder(u.runs)
	out := make([]model.Result, 0, len(all))
	for i := 0; i < len(all); {
		first := all[i]
		out = append(out, *first.result)
		for i++; i < len(all) && all[i].result.RelPath == first.result.RelPath; i++ {
			if why := differ(first.result, all[i].result); why != "" {
				return nil, fmt.Errorf("%s and %s disagree on %s (%s): merge reports of disjoint shards, or of runs of the same corpus",
					u.sources[first.source], u.sources[all[i].source], first.result.RelPath, why)
			}
		}
	}
	return out, nil
}

// inPathOrder merges runs of results into one list in corpus path order,
// two runs at a time; a run not in path order is sorted first. Of the
// results of one path, those of earlier runs come first, each run's in
// its own order.
func inPathOrder(runs [][]placed) []placed {
	for _, run := range runs {
		if !slices.IsSortedFunc(run, byPath) {
			slices.SortStableFunc(run, byPath)
		}
	}
	for len(runs) > 1 {
		var next [][]placed
		for i := 0; i < len(runs); i += 2 {
			if i+1 == len(runs) {
				next = append(next, runs[i])
				break
			}
			next = append(next, mergeTwo(runs[i], runs[i+1]))
		}
		runs = next
	}
	if len(runs) == 0 {
		return nil
	}
	return runs[0]
}

func byPath(a, b placed) int { return strings.Compare(a.result.RelPath, b.result.RelPath) }

// mergeTwo merges two runs in path order, a's results first of a path.
func mergeTwo(a, b []placed) []placed {
	out := make([]placed, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].result.RelPath < a[0].result.RelPath {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
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

func (u *implUnion) add(source string, im *model.Implementation) {
	u.results.add(source, im.Results)
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
	// Shards check the images of their own fixtures.
	u.Images = append(u.Images, im.Images...)
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
		return "closure " + shortOrUnknown(s.Closure)
	}
	return shortOrUnknown(s.SHA256)
}

// checkShards holds the shards among reports to making wholes. A split is
// the shards of one count run through the same implementations (a matrix
// may split the corpus for each of several runtimes): each must be of one
// selection of one corpus (the same corpus digest), have each part once
// and none missing, and hold only fixtures of the part their paths put
// them in (ShardOf), so that no fixture is in two. Reports that are not
// shards are merged as before.
func checkShards(reports []Report) error {
	splits := map[string]*split{}
	var order []string
	var first *Report
	for i := range reports {
		rep := &reports[i]
		if rep.Run.Shard == nil {
			continue
		}
		if first == nil {
			first = rep
		}
		if rep.Run.CorpusDigest != first.Run.CorpusDigest {
			return fmt.Errorf("%s and %s are shards of different corpora (corpus sha256 %s and %s): merge the shards of one run of one corpus",
				first.Source, rep.Source, shortOrUnknown(first.Run.CorpusDigest), shortOrUnknown(rep.Run.CorpusDigest))
		}
		key := splitKey(rep.Run)
		sp := splits[key]
		if sp == nil {
			sp = &split{first: rep, seen: map[int]string{}}
			splits[key] = sp
			order = append(order, key)
		}
		if err := sp.add(rep); err != nil {
			return err
		}
	}
	for _, key := range order {
		if err := splits[key].complete(); err != nil {
			return err
		}
	}
	return nil
}

// split is the shards of one split seen so far.
type split struct {
	first *Report
	seen  map[int]string // shard index → the report's source
	held  map[string]*Report
	// results are the shards' validator results, to check the whole
	// against the shards' corpus digest (covers).
	results     [][]placed
	interrupted bool
}

// splitKey is what makes shards one split: the implementations they ran
// (as Merge joins them); the count is checked, not keyed, so that shards
// of two counts are refused by name.
func splitKey(run *model.Run) string {
	var keys []string
	for i := range run.Implementations {
		keys = append(keys, implKey(&run.Implementations[i]))
	}
	sort.Strings(keys)
	return strings.Join(keys, "\x01")
}

func (sp *split) add(rep *Report) error {
	sh, fs := rep.Run.Shard, sp.first.Run.Shard
	switch {
	case sh.Count != fs.Count:
		return fmt.Errorf("%s is shard %d/%d and %s shard %d/%d: merge the shards of one split", sp.first.Source, fs.Index, fs.Count, rep.Source, sh.Index, sh.Count)
	case sp.seen[sh.Index] != "":
		return fmt.Errorf("%s and %s are both shard %d/%d%s: merge each shard once", sp.seen[sh.Index], rep.Source, sh.Index, sh.Count, sp.of())
	}
	sp.seen[sh.Index] = rep.Source
	sp.interrupted = sp.interrupted || rep.Run.Interrupted != nil
	sp.results = append(sp.results, placedRun(rep.Run.Results, len(sp.results)))
	if sh.Timings != fs.Timings {
		return fmt.Errorf("%s was split %s and %s %s: merge the shards of one split", sp.first.Source, splitRule(fs), rep.Source, splitRule(sh))
	}
	if sh.Timings != "" {
		return sp.holdOnce(rep)
	}
	for _, r := range rep.Run.Results {
		if k := runner.ShardOf(r.RelPath, sh.Count); k != sh.Index {
			return fmt.Errorf("%s, shard %d/%d, holds %s, which is in shard %d/%d: it was not made by --shard of this split",
				rep.Source, sh.Index, sh.Count, r.RelPath, k, sh.Count)
		}
	}
	return nil
}

// splitRule says how a shard's fixtures were chosen, for an error.
func splitRule(sh *model.Shard) string {
	if sh.Timings == "" {
		return "by path hash"
	}
	return "by the timings report sha256 " + shortOrUnknown(sh.Timings)
}

// holdOnce checks that no fixture of a shard balanced by timings is in
// another shard of its split. Which shard a fixture is in depends on the
// timings report, which merge does not read: it trusts each shard to hold
// its own, as every shard of the split records the same timings, and
// refuses a fixture two shards hold.
func (sp *split) holdOnce(rep *Report) error {
	if sp.held == nil {
		sp.held = map[string]*Report{}
	}
	for _, r := range rep.Run.Results {
		if other := sp.held[r.RelPath]; other != nil {
			return fmt.Errorf("%s, shard %d/%d, and %s, shard %d/%d, both hold %s: a fixture is in one shard of a split",
				other.Source, other.Run.Shard.Index, other.Run.Shard.Count, rep.Source, rep.Run.Shard.Index, rep.Run.Shard.Count, r.RelPath)
		}
		sp.held[r.RelPath] = rep
	}
	return nil
}

// complete says which shards of the split are missing, if any.
func (sp *split) complete() error {
	n := sp.first.Run.Shard.Count
	var missing []string
	for k := 1; k <= n; k++ {
		if sp.seen[k] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	switch len(missing) {
	case 0:
		return sp.covers()
	case 1:
		return fmt.Errorf("shard %s%s is missing: merge every shard of the split", missing[0], sp.of())
	}
	return fmt.Errorf("shards %s%s are missing: merge every shard of the split", strings.Join(missing, ", "), sp.of())
}

// covers checks the split's fixtures against the selection its corpus
// digest names. A shard records the digest of the list of the selection's
// paths (runner.ListingDigest); with a name or tag filter, or written by
// an older version, the digest of their content (runner.CorpusDigest): the
// paths or the files of the shards' results must make it again, or a shard
// left fixtures out, or held fixtures the selection does not have. A split
// an interruption cut short holds a part of its selection, and says so.
func (sp *split) covers() error {
	want := sp.first.Run.CorpusDigest
	if want == "" || sp.interrupted {
		return nil
	}
	// Each path once, with the file of the last shard that holds it.
	all := inPathOrder(sp.results)
	paths := make([]string, 0, len(all))
	files := make([]string, 0, len(all))
	for i, p := range all {
		if i+1 < len(all) && all[i+1].result.RelPath == p.result.RelPath {
			continue
		}
		paths = append(paths, p.result.RelPath)
		files = append(files, p.result.Digest.File)
	}
	if runner.ListingDigest(paths) == want || runner.DigestOfLines(len(paths), func(i int) (string, string) { return files[i], paths[i] }) == want {
		return nil
	}
	sources := make([]string, 0, len(sp.seen))
	for k := 1; k <= sp.first.Run.Shard.Count; k++ {
		sources = append(sources, sp.seen[k])
	}
	return fmt.Errorf("the shards%s (%s) hold %d fixtures, which are not the selection their corpus sha256 %s lists: a shard left fixtures out, "+
		"or holds fixtures of another corpus; merge the reports the shards of one run wrote", sp.of(), strings.Join(sources, ", "), len(paths), shortOrUnknown(want))
}

// of names the implementations of the split, when it ran any.
func (sp *split) of() string {
	var labels []string
	for i := range sp.first.Run.Implementations {
		labels = append(labels, sp.first.Run.Implementations[i].Label())
	}
	if len(labels) == 0 {
		return ""
	}
	return " of the run through " + strings.Join(labels, ", ")
}

// mergedDigest is the corpus digest of the merged run: the one its reports
// share when none is a shard, else the digest of the fixtures the merged
// results cover, as the unsharded run records it (a shard records the
// listing of the selection, not its content); empty when a report recorded
// none.
func mergedDigest(reports []Report, results []model.Result) string {
	same := true
	for _, rep := range reports {
		if rep.Run.CorpusDigest == "" {
			return ""
		}
		same = same && rep.Run.Shard == nil && rep.Run.CorpusDigest == reports[0].Run.CorpusDigest
	}
	if same {
		return reports[0].Run.CorpusDigest
	}
	return runner.DigestOfResults(results)
}

// shortOrUnknown is model.ShortSum, or "unknown" for a digest not recorded.
func shortOrUnknown(sum string) string { return cmp.Or(model.ShortSum(sum), "unknown") }
