package markdown

// The runtime harness's report: a matrix of implementations against
// fixtures. It is rendered apart from the run's own report (render.go) and
// has its own size fitting, so that either can change without the other.

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Bounds of the matrix whatever room there is: a reader scans a table of a
// few dozen rows, not thousands; the JSON and JUnit reports hold the rest.
const (
	maxMatrixRows = 60
	// maxCommentRows: the comment is read at a glance; the job summary
	// and the check run show maxMatrixRows.
	maxCommentRows    = 20
	maxCausesListed   = 8
	maxStderrLines    = 20
	maxLabelChars     = 60
	maxMessageChars   = 300
	implementationsH2 = "## DRP2 implementations"
)

// matrixLayout is how much of the matrix is shown.
type matrixLayout struct {
	rows    int  // fixtures in the matrix table
	failing int  // causes of failure listed per implementation
	stderr  bool // stderr tails
	images  int  // failing Level 3 images listed
	// provenance is the line under the verdict naming the commit and
	// linking the runs, as under a single run's verdict; "" for none.
	provenance string
}

// Matrix renders the implementations of a run, best first: a counts table
// (passed, failed, no verdict, Level 2), each one's failing fixtures by
// cause, shown whole when they have few causes, the matrix of the fixtures
// that failed for at least one of them, and the failures of many causes
// folded. What the pull request broke against the base leads.
// It degrades to fit fits, and returns "" for a run without
// implementations.
func Matrix(run *model.Run, opts Options, fits func(string) bool) string {
	return matrix(run, opts, fits, "", maxMatrixRows)
}

func matrix(run *model.Run, opts Options, fits func(string) bool, provenance string, maxRows int) string {
	if run == nil || len(run.Implementations) == 0 {
		return ""
	}
	rows := len(failingAnywhere(run, indexOf(run)))
	l := matrixLayout{rows: min(rows, maxRows), failing: maxCausesListed, stderr: true, provenance: provenance, images: imagesAt(maxRows)}
	for {
		s := renderMatrix(run, opts, l)
		if fits(s) {
			return s
		}
		switch {
		case l.stderr:
			l.stderr = false
		case l.failing > 0:
			l.failing /= 2
		case l.rows > 0 || l.images > 0:
			l.rows /= 2
			l.images /= 2
		default:
			return cutToFit(s, fits)
		}
	}
}

// ImplementationsComment is the sticky comment of a run with
// implementations: the marker, the matrix, and one line on the run's own
// check of the corpus. At most escape.CommentChars characters.
func ImplementationsComment(run *model.Run, opts Options) string {
	if run == nil {
		run = &model.Run{}
	}
	head := Marker(opts.CorpusKey) + "\n"
	tail := "\n" + corpusLine(&run.Summary)
	fits := func(s string) bool { return fitsComment(head, s, tail) }
	return withManifest(head+matrix(run, opts, fits, provenance(opts, false), maxCommentRows)+tail, run.Manifest)
}

// ImplementationsCheckOutput is the check-run title and summary of a run
// with implementations.
func ImplementationsCheckOutput(run *model.Run, opts Options) (title, summary string) {
	title = implementationsVerdict(run)
	if run.Judgement != nil {
		title = "DRP2 conformance: " + explain.Judgement(run).Headline
	}
	title = escape.Clip(escape.OneLine(title), escape.CheckTitleChars)
	tail := "\n" + corpusLine(&run.Summary)
	summary = matrix(run, opts, func(s string) bool { return len(s)+len(tail) <= escape.CheckOutputBytes }, provenance(opts, true), maxMatrixRows) + tail
	return title, summary
}

// ImplementationsFailed counts the implementations with at least one
// failing fixture.
func ImplementationsFailed(run *model.Run) int {
	n := 0
	for i := range run.Implementations {
		if run.Implementations[i].Summary.Unexcused() > 0 || run.Implementations[i].Error != "" {
			n++
		}
	}
	return n
}

func implementationsVerdict(run *model.Run) string {
	failing, unusable := 0, 0
	for i := range run.Implementations {
		switch im := &run.Implementations[i]; {
		case im.Error != "":
			unusable++
		case im.Summary.Unexcused() > 0:
			failing++
		}
	}
	excused := false
	for i := range run.Implementations {
		s := &run.Implementations[i].Summary
		excused = excused || s.KnownFailures+s.FlakyFailed > 0
	}
	v := explain.ExpectedVerdict(len(run.Implementations), failing, unusable, excused)
	return strings.ToUpper(v[:1]) + v[1:]
}

// corpusLine says how the run's own validator judged the corpus, so that a
// corpus problem is not mistaken for an implementation's.
func corpusLine(s *model.Summary) string {
	if s.Failed == 0 {
		return fmt.Sprintf("The project's own validator matches all %d fixtures run.\n", s.Run)
	}
	return fmt.Sprintf("The project's own validator fails %d of the %d fixtures run: see its report.\n", s.Failed, s.Run)
}

func renderMatrix(run *model.Run, opts Options, l matrixLayout) string {
	var b strings.Builder
	order := model.RankImplementations(run.Implementations)
	writeMatrixHeadline(&b, run)
	if l.provenance != "" {
		b.WriteString(l.provenance + "\n\n")
	}

	// One row per implementation, numbered: the tables below name the
	// implementations by number, so that a dozen of them still fit the
	// width of a comment.
	parity := model.Parity(run)
	b.WriteString("| # | | Implementation | Level 1 | Level 2 replies | Level 3 preview |\n|--:|---|---|---|---|---|\n")
	number := map[string]int{}
	for n, i := range order {
		im := &run.Implementations[i]
		number[im.Label()] = n + 1
		level2 := "not claimed"
		switch {
		case im.Error != "":
			level2 = "—" // it ran nothing
		case im.Executes:
			checked, passed := im.Level2Counts()
			level2 = fmt.Sprintf("%d of %d mirror the requests", passed, checked)
		}
		level3 := "—"
		if compared, agreed := model.ParityCounts(parity, im.Label()); compared > 0 {
			level3 = fmt.Sprintf("%d of %d equal", agreed, compared)
		}
		if cell := imagesCell(im.Images, number); cell != "" {
			level3 = strings.TrimPrefix(level3+"<br>"+cell, "—<br>")
		}
		who := label(im.Label())
		if a := explain.Adapter(im.Adapter); a != "" {
			who += "<br><sub>" + escape.Markdown(escape.Clip(a, maxMessageChars)) + "</sub>"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", n+1, mark(&im.Summary, im.Error != ""), who, level1Cell(im), level2, level3)
	}

	writeUnfolded(&b, run, order, number, opts, l)

	ix := indexOf(run)
	failing := failingAnywhere(run, ix)
	if len(failing) > 0 {
		b.WriteString("\n### Fixtures that fail for at least one implementation\n\n| Fixture |")
		for n := range order {
			fmt.Fprintf(&b, " %d |", n+1)
		}
		b.WriteString("\n|---|" + strings.Repeat(":-:|", len(order)) + "\n")
		for _, rel := range failing[:min(l.rows, len(failing))] {
			fmt.Fprintf(&b, "| <code>%s</code> |", wrap(rel))
			for _, i := range order {
				if run.Implementations[i].Error != "" {
					b.WriteString(" — |") // not run
					continue
				}
				fmt.Fprintf(&b, " %s |", cellFor(ix[i][rel]))
			}
			b.WriteString("\n")
		}
		if rest := len(failing) - min(l.rows, len(failing)); rest > 0 {
			fmt.Fprintf(&b, "\n…and %d more %s; the JSON and JUnit reports list every one.\n", rest, explain.Plural(rest, "fixture", "fixtures"))
		}
		b.WriteString("\n✅ passed · ❌ failed · ⚠️ no verdict (crash, timeout, not the protocol) · ➖ not claimed (a phase it does not perform) · — not run")
		if expected(run) {
			b.WriteString(" · 🟡 known failure · 🔁 flaky · ❗ unexpected pass · ⏭️ skipped")
		}
		b.WriteString("\n")
	}
	writeParity(&b, parity, number, l.rows)
	ranked := make([][]model.ImageCheck, len(order))
	for n, i := range order {
		ranked[n] = run.Implementations[i].Images
	}
	writeImages(&b, ranked, run.CorpusRoot, opts, l.images)
	writeFailing(&b, run, order, number, opts, l)
	return b.String()
}

// writeUnfolded shows the failures of the implementations whose failures
// have few causes whole, as the validator's are in its table, before the
// matrix that marks them one fixture at a time.
func writeUnfolded(b *strings.Builder, run *model.Run, order []int, number map[string]int, opts Options, l matrixLayout) {
	for _, i := range order {
		// Failures of few causes, as many as the validator's table of
		// the comment shows at most.
		im := &run.Implementations[i]
		if g, _ := causes(im); im.Error != "" || len(g) == 0 || len(g) > maxCompactCauses {
			continue
		}
		fmt.Fprintf(b, "\n### %d. %s: %s\n\n", number[im.Label()], escape.Markdown(escape.Clip(im.Label(), maxLabelChars)),
			escape.Markdown(count(im.Summary.Unexcused(), "failing fixture", "failing fixtures")))
		writeCauses(b, run, im, opts, l.failing)
		if l.stderr && im.Stderr != "" {
			fmt.Fprintf(b, "\n<details><summary>The end of its standard error</summary>\n\n%s\n</details>\n",
				escape.MarkdownFence(lastLines(im.Stderr, maxStderrLines)))
		}
	}
}

// writeFailing shows each failing implementation's failures by cause,
// with the end of its standard error; an unusable one says why.
func writeFailing(b *strings.Builder, run *model.Run, order []int, number map[string]int, opts Options, l matrixLayout) {
	for _, i := range order {
		im := &run.Implementations[i]
		writeExpected(b, im, number[im.Label()], opts, l.failing)
		if im.Summary.Unexcused() == 0 && im.Error == "" {
			continue
		}
		if g, _ := causes(im); im.Error == "" && len(g) <= maxCompactCauses {
			continue // shown above the matrix
		}
		what := explain.Unusable
		if im.Error == "" {
			what = count(im.Summary.Unexcused(), "failing fixture", "failing fixtures")
		}
		fmt.Fprintf(b, "\n<details><summary>%d. %s: %s</summary>\n\n", number[im.Label()], escape.HTML(escape.Clip(im.Label(), maxLabelChars)),
			escape.HTML(what))
		if im.Error != "" {
			fmt.Fprintf(b, "It %s, so none of its fixtures ran: %s\n", explain.Unusable, escape.Markdown(escape.Clip(im.Error, maxMessageChars)))
		} else {
			writeCauses(b, run, im, opts, l.failing)
		}
		if l.stderr && im.Stderr != "" {
			b.WriteString("\nThe end of its standard error:\n\n" + escape.MarkdownFence(lastLines(im.Stderr, maxStderrLines)))
		}
		b.WriteString("\n</details>\n")
	}
}

// causes are an implementation's failures that fail it, by cause.
func causes(im *model.Implementation) (groups []explain.Group, failing int) {
	var rs []*model.Result
	for j := range im.Results {
		if r := &im.Results[j]; fails(r) && unexcused(r) {
			rs = append(rs, r)
		}
	}
	return explain.ImplementationGroups(rs), len(rs)
}

// writeCauses lists an implementation's failing fixtures by cause, at
// most max causes: what differs, the one message, a few fixtures linked
// and the command that reproduces the first through the implementation.
func writeCauses(b *strings.Builder, run *model.Run, im *model.Implementation, opts Options, max int) {
	groups, failing := causes(im)
	shown := 0
	for k, g := range groups {
		if k == max {
			break
		}
		shown += len(g.Results)
		cause := g.Cause()
		item := bold(cause)
		if why := g.Why(); why != "" && !strings.Contains(cause, why) {
			item += "<br>" + cell(escape.Cap(why, maxWhy))
		}
		locs := firstOf(len(g.Results), maxCompactListed, func(i int) string { return location(g.Results[i], opts) })
		if len(g.Results) > 1 {
			item = fmt.Sprintf("**%d fixtures:** ", len(g.Results)) + item
		}
		paths := g.Paths()[:1]
		item += "<br>" + strings.Join(locs, " · ") + "<br>Reproduce: " + codeCell(explain.ReproduceImplementation(run.ToolVersion, im.Command, paths))
		b.WriteString("- " + item + "\n")
	}
	if rest := failing - shown; rest > 0 {
		fmt.Fprintf(b, "- …and %d more %s, of %s: the JSON and JUnit reports list every one.\n",
			rest, explain.Plural(rest, "fixture", "fixtures"), count(len(groups)-max, "other cause", "other causes"))
	}
}

// failingAnywhere lists, in corpus order, the fixtures that did not pass
// for at least one implementation.
func failingAnywhere(run *model.Run, ix index) []string {
	seen := map[string]bool{}
	var out []string
	add := func(rel string) {
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	// The run's order is the corpus order; implementations follow it.
	for i := range run.Results {
		rel := run.Results[i].RelPath
		for k := range run.Implementations {
			if r := ix[k][rel]; r != nil && fails(r) && run.Implementations[k].Error == "" {
				add(rel)
				break
			}
		}
	}
	// Fixtures an implementation ran that the run's results lack (a
	// merged report of different selections) come last, in their order.
	for k := range run.Implementations {
		if run.Implementations[k].Error != "" {
			continue // it ran none: no fixture fails for it
		}
		for j := range run.Implementations[k].Results {
			if r := &run.Implementations[k].Results[j]; fails(r) {
				add(r.RelPath)
			}
		}
	}
	return out
}

// expected says whether any implementation's expectations cover a result
// the matrix shows differently.
func expected(run *model.Run) bool {
	for i := range run.Implementations {
		if explain.Expectations(&run.Implementations[i].Summary) != "" {
			return true
		}
	}
	return false
}

// index maps each implementation's results by corpus path, so that the
// matrix costs one lookup per cell.
type index []map[string]*model.Result

func indexOf(run *model.Run) index {
	ix := make(index, len(run.Implementations))
	for k := range run.Implementations {
		im := &run.Implementations[k]
		ix[k] = make(map[string]*model.Result, len(im.Results))
		for j := range im.Results {
			ix[k][im.Results[j].RelPath] = &im.Results[j]
		}
	}
	return ix
}

func cellFor(r *model.Result) string {
	switch k := cellKind(r); {
	case r == nil:
		return "—"
	case k == model.KindKnownFailure:
		return "🟡"
	case k == model.KindFlaky:
		return "🔁"
	case k == model.KindUnexpectedPass:
		return "❗"
	case k == model.KindSkipped:
		return "⏭️"
	case r.Passed:
		return "✅"
	case r.Actual.Outcome == model.HarnessError:
		return "⚠️"
	case r.Actual.Outcome == model.NotClaimed:
		return "➖"
	default:
		return "❌"
	}
}

func cellKind(r *model.Result) model.Kind {
	if r == nil {
		return model.KindPassed
	}
	return r.Kind()
}

// fails reports whether a result is a failure: not passed, and not a
// fixture the implementation does not claim or was not sent.
func fails(r *model.Result) bool {
	return !r.Passed && r.Actual.Outcome != model.NotClaimed && r.Actual.Outcome != model.Skipped
}

// unexcused reports whether a failure fails the run: no expectations
// entry excuses it.
func unexcused(r *model.Result) bool {
	k := r.Kind()
	return k != model.KindKnownFailure && k != model.KindFlaky
}

// writeExpected folds what an implementation's expectations say of its
// results: the unexpected passes (stale entries) first, then the flaky
// fixtures with their attempts, then the known failures, at most max of
// each kind.
func writeExpected(b *strings.Builder, im *model.Implementation, number int, opts Options, max int) {
	what := explain.Expectations(&im.Summary)
	if what == "" || im.Error != "" {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>%d. %s: %s</summary>\n\n", number, escape.HTML(escape.Clip(im.Label(), maxLabelChars)), escape.HTML(what))
	for _, k := range []model.Kind{model.KindUnexpectedPass, model.KindFlaky, model.KindKnownFailure} {
		shown, n := 0, 0
		for j := range im.Results {
			r := &im.Results[j]
			if r.Kind() != k {
				continue
			}
			if n++; shown == max {
				continue
			}
			shown++
			fmt.Fprintf(b, "- %s %s: %s\n", cellFor(r), location(r, opts), cell(escape.Cap(expectedWhy(r), maxWhy)))
		}
		if rest := n - shown; rest > 0 {
			fmt.Fprintf(b, "- …and %d more: the JSON report lists every one.\n", rest)
		}
	}
	b.WriteString("\n</details>\n")
}

// expectedWhy is what the matrix says of a result its expectations cover.
func expectedWhy(r *model.Result) string {
	entry := ""
	if r.Listing != nil {
		entry = " (" + r.Listing.Entry + ")"
	}
	switch r.Kind() {
	case model.KindUnexpectedPass:
		return explain.StaleEntry(r)
	case model.KindFlaky:
		if a := explain.Attempts(r); a != "" {
			return "flaky: " + a
		}
		if r.Passed {
			return "flaky" + entry + ": passed"
		}
		return "flaky" + entry + ": failed, " + explain.Headline(r)
	}
	return "known failure" + entry + ": " + r.KnownFailure + "; " + explain.Headline(r)
}

// mark is an implementation's status from its counts: ✅ Level 1 met,
// ❌ a failure or unusable, ➖ nothing failed but fixtures are not claimed.
func mark(s *model.Summary, unusable bool) string {
	switch {
	case s.Unexcused() > 0 || unusable:
		return "❌"
	case s.NotClaimed > 0:
		return "➖"
	}
	return "✅"
}

// level1Cell is the Level 1 count: passed of claimed, what failed, and the
// fixtures not claimed with the phases it performs.
func level1Cell(im *model.Implementation) string {
	if im.Error != "" {
		return explain.Unusable // none of its fixtures ran
	}
	s := im.Summary
	claimed := s.Run - s.NotClaimed - s.Skipped
	cell := fmt.Sprintf("%d of %d", s.Passed, claimed)
	var notes []string
	if s.Unexcused() > 0 {
		notes = append(notes, fmt.Sprintf("%d failed", s.Unexcused()))
	}
	if e := explain.Expectations(&s); e != "" {
		notes = append(notes, e)
	}
	if n := im.HarnessErrors(); n > 0 {
		notes = append(notes, fmt.Sprintf("%d no verdict", n))
	}
	if len(notes) > 0 {
		cell += " (" + strings.Join(notes, ", ") + ")"
	}
	if s.NotClaimed > 0 {
		short := make([]string, 0, len(im.Phases))
		for _, p := range im.Phases {
			short = append(short, strings.TrimSuffix(p, "_validation"))
		}
		cell += fmt.Sprintf("; %d not claimed<br><sub>performs %s</sub>", s.NotClaimed, escape.Markdown(escape.Clip(strings.Join(short, ", "), maxMessageChars)))
	}
	return cell
}

// imagesCell counts an implementation's Level 3 images for its row of the
// matrix: how many match its own references, and how many the best ranked
// implementation's image of the same fixture (Level 3 across runtimes),
// naming that one by its number; "" when it has none.
func imagesCell(images []model.ImageCheck, number map[string]int) string {
	if len(images) == 0 {
		return ""
	}
	pass, against, agree, of := 0, 0, 0, ""
	for i := range images {
		if images[i].Verdict.Pass() {
			pass++
		}
		if images[i].Against != "" {
			against++
			of = images[i].Against
			if images[i].AgainstVerdict.Pass() {
				agree++
			}
		}
	}
	cell := fmt.Sprintf("images: %d of %d match references", pass, len(images))
	if n, ok := number[of]; ok && against > 0 {
		cell += fmt.Sprintf(", %d of %d match #%d's", agree, against, n)
	}
	return cell
}

// writeParity is the Level 3 preview: per readback, which sources agree;
// for those that differ, the first differing byte. Sources are the
// fixture's own data and the implementations by number. Differences come
// first; at most rows rows are shown.
func writeParity(b *strings.Builder, rows []model.ParityRow, number map[string]int, max int) {
	if len(rows) == 0 {
		return
	}
	differ := model.ParityDiffering(rows)
	b.WriteString("\n### Level 3 preview: readback bytes\n\n")
	fmt.Fprintf(b, "%s compared: %d agree, %d differ. Information only: DRP2 2.0 defers Level 3 to 2.1 (`--fail-on level3` fails a run on a difference).\n",
		count(len(rows), "readback", "readbacks"), len(rows)-differ, differ)
	shown := 0
	for pass := 0; pass < 2 && shown < max; pass++ {
		for i := range rows {
			r := &rows[i]
			if r.Agree() != (pass == 1) || shown >= max {
				continue
			}
			if shown == 0 {
				b.WriteString("\n| Fixture | Readback | Sources (the first is the reference) |\n|---|--:|---|\n")
			}
			shown++
			icon := "✅"
			if !r.Agree() {
				icon = "❌"
			}
			var groups []string
			for _, g := range r.Groups {
				var who []string
				for _, src := range g.Sources {
					if src == model.FixtureSource {
						who = append(who, "fixture data")
					} else {
						who = append(who, fmt.Sprint(number[src]))
					}
				}
				text := strings.Join(who, ", ") + ": " + count(g.Size, "byte", "bytes")
				if g.FirstDiff >= 0 {
					text += fmt.Sprintf(", first differing byte %d (%s, not %s)", g.FirstDiff, byteText(g.Got), byteText(g.Want))
				}
				groups = append(groups, text)
			}
			for _, src := range r.Unusable {
				who := "fixture data"
				if src != model.FixtureSource {
					who = fmt.Sprint(number[src])
				}
				groups = append(groups, who+": not comparable (not base64, or over 1 MiB)")
			}
			fmt.Fprintf(b, "| <code>%s</code> | %d | %s %s |\n", escape.Markdown(r.Path), r.Readback, icon, strings.Join(groups, " · "))
		}
	}
	if rest := len(rows) - shown; rest > 0 {
		fmt.Fprintf(b, "\n…and %d more %s; the JSON report holds every one.\n", rest, explain.Plural(rest, "readback", "readbacks"))
	}
}

// byteText shows one byte, or says that the bytes ended.
func byteText(v int) string {
	if v < 0 {
		return "the end"
	}
	return fmt.Sprintf("0x%02x", v)
}

// label is an implementation's label, bold and clipped.
func label(name string) string {
	return "**" + escape.Markdown(escape.Clip(name, maxLabelChars)) + "**"
}

// count is "1 fixture" or "2 fixtures".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"[earlier lines dropped]"}, lines[len(lines)-n:]...)
	}
	out := strings.Join(lines, "\n")
	return escape.Clip(out, 4000)
}

// cutToFit is the last resort: whole lines from the top while they fit,
// then a note. A cut never ends inside a line, so no construct is left
// open but a <details>, which the note closes.
func cutToFit(s string, fits func(string) bool) string {
	const note = "\n…the report was cut to fit; the JSON and JUnit reports hold all of it.\n"
	const closing = "\n</details>\n"
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if !fits(b.String() + line + closing + note) {
			break
		}
		b.WriteString(line)
	}
	out := b.String()
	if strings.Count(out, "<details>") > strings.Count(out, "</details>") {
		out += closing
	}
	return out + note
}

// writeMatrixHeadline writes the heading of the implementations' section
// and its verdict: what the pull request broke first (the counts below say
// how each implementation fares, not what changed), then who is missing,
// which the counts of those that reported cannot say, then the counts.
func writeMatrixHeadline(b *strings.Builder, run *model.Run) {
	icon := "✅"
	absent := explain.Missing(run)
	if ImplementationsFailed(run) > 0 || len(absent) > 0 {
		icon = "❌"
	}
	b.WriteString(implementationsH2 + "\n\n")
	for _, broke := range explain.ImplementationsBroken(run.Comparison) {
		fmt.Fprintf(b, "🔴 **%s**\n\n", escape.Markdown(broke))
	}
	for _, missing := range absent {
		fmt.Fprintf(b, "🔴 **%s**\n\n", escape.Markdown(missing))
	}
	verdict := implementationsVerdict(run)
	if len(absent) > 0 {
		verdict = "What the run requires is missing (above); " + strings.ToLower(verdict[:1]) + verdict[1:]
	}
	fmt.Fprintf(b, "%s **%s**\n\n", icon, escape.Markdown(verdict))
}
