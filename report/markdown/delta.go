package markdown

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// folded are the transitions whose tables sit under <details>: they repeat
// what the base already said, while the others are what this change did.
var folded = map[model.Transition]bool{model.StillFailing: true, model.StillPassing: true}

// lead writes what a report opens with when the run was compared with a
// baseline or excused known failures: the delta in one line ("2 regressed,
// 3 fixed, 5 added against base abc1234", the base linked to its commit,
// then a link comparing base and head), then one table per transition,
// regressions first. A comparison that could not be made says why.
func lead(b *strings.Builder, run *model.Run, opts Options, l layout) {
	c := run.Comparison
	if c == nil || c.Unavailable != "" {
		if c != nil {
			fmt.Fprintf(b, "> [!WARNING]\n> %s\n\n", escape.Markdown(escape.OneLine(c.Unavailable)))
		}
		known(b, &run.Summary)
		return
	}
	// Green only when the run passes: "no change" on a failing run is no
	// good news, and the verdict below says what fails.
	// A fixture that failed on the base and is gone now is no good news
	// either: it may be hidden rather than fixed.
	icon := "🟢"
	switch {
	case c.Delta().Regressed > 0 || len(explain.ImplementationsBroken(c)) > 0:
		icon = "🔴"
	case runFails(run) || explain.RemovedFailing(c) > 0:
		icon = "⚪"
	}
	// The headline names the base, the changed schema files and a schema
	// error, all of them text a pull request controls: its words are
	// escaped as a sentence, and the base's name is shown as code.
	const against = " against base "
	words := strings.TrimSuffix(explain.ComparisonHeadline(c), against+c.Base)
	fmt.Fprintf(b, "### %s %s%s%s\n\n", icon, escape.MarkdownText(words), against, baseRef(c, opts))
	if u := compareURL(c, opts); u != "" {
		fmt.Fprintf(b, "[Compare the base with this commit](%s)\n\n", u)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(b, "> [!WARNING]\n> %s\n\n", escape.Markdown(escape.OneLine(n)))
	}
	schemaLines(b, run.CommandSchema, run.FixtureSchema, c)
	known(b, &run.Summary)
	for _, v := range model.Transitions {
		if folded[v] && !l.still {
			continue
		}
		var changes []*model.Change
		for i := range c.Changes {
			if c.Changes[i].Transition == v {
				changes = append(changes, &c.Changes[i])
			}
		}
		if len(changes) > 0 {
			changeTable(b, run, v, changes, opts, l)
		}
	}
	implementationDeltas(b, c)
	if !l.still && !l.compact { // the compact comment lists them below
		if n := c.Delta().StillFailing; n > 0 {
			fmt.Fprintf(b, "*%d %s still failing as on the base: %s.*\n\n", n, explain.Plural(n, "fixture is", "fixtures are"), restWhere(opts, l.selfLink, "the JSON report"))
		}
	}
}

// implementationDeltas is a table of the implementations, each against
// itself on the base: its counts and the first few fixtures that fail for
// it now and did not on the base.
func implementationDeltas(b *strings.Builder, c *model.Comparison) {
	if len(c.Implementations) == 0 {
		return
	}
	b.WriteString("| implementation | on the base | regressed | fixed | added | new failures |\n|:--|:--|--:|--:|--:|:--|\n")
	for i := range c.Implementations {
		d := &c.Implementations[i]
		news := append(append([]string(nil), d.Regressed...), d.AddedFailing...)
		cells := firstOf(len(news), maxCompactListed, func(i int) string { return escape.MarkdownCode(news[i]) })
		if len(cells) == 0 {
			cells = []string{"none"}
		}
		base := explain.Absent
		if d.Base != "" {
			base = cell(d.Base)
		}
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %s |\n", cell(d.Label), base, len(d.Regressed), len(d.Fixed),
			len(d.AddedFailing)+d.AddedPassing, strings.Join(cells, "<br>"))
	}
	b.WriteString("\n")
}

// schemaLines says which schema changed, by its digests and its changed
// files, and which error the change now gives.
func schemaLines(b *strings.Builder, command, fixture model.SchemaSource, c *model.Comparison) {
	schema := func(label string, changed bool, base, head model.SchemaSource, files []string) {
		if !changed {
			return
		}
		what, from, to := "sha256", base.SHA256, head.SHA256
		if base.Closure != "" && head.Closure != "" {
			what, from, to = "closure sha256", base.Closure, head.Closure
		}
		fmt.Fprintf(b, "- %s changed: %s %s%s%s", label, what, code(model.ShortSum(from)), explain.Arrow, code(model.ShortSum(to)))
		if len(files) > 0 {
			fmt.Fprintf(b, "; files: %s", explain.SchemaFiles(files, code))
		}
		b.WriteString("\n")
	}
	schema("Command schema", c.CommandSchemaChanged, c.BaseCommandSchema, command, c.CommandSchemaFiles)
	schema("Fixture schema", c.FixtureSchemaChanged, c.BaseFixtureSchema, fixture, c.FixtureSchemaFiles)
	// Our words, and the error and the fixture's path as code.
	if f := explain.SchemaFailureLine(c.SchemaFailure, code); f != "" {
		fmt.Fprintf(b, "- %s\n", f)
	}
	if c.SchemasChanged() {
		b.WriteString("\n")
	}
}

// runFails reports whether the run fails: as judged, or, for a run not
// judged, when a fixture or an implementation fails.
func runFails(run *model.Run) bool {
	if j := run.Judgement; j != nil {
		return j.Failed
	}
	return run.Summary.Failed > 0 || ImplementationsFailed(run) > 0
}

// baseRef is the base's name as code, linked to its commit when the base
// is a commit and the options name the repository.
func baseRef(c *model.Comparison, opts Options) string {
	sha := commitSHA(c.Commit)
	base := serverBase(opts.ServerURL)
	if sha == "" || base == "" || opts.Repository == "" {
		return code(c.Base)
	}
	return "[" + code(c.Base) + "](" + base + "/" + repoPath(opts.Repository) + "/commit/" + sha + ")"
}

// compareURL is GitHub's page comparing the base commit with the head
// commit (base...head), or "" when either is unknown.
func compareURL(c *model.Comparison, opts Options) string {
	from, to := commitSHA(c.Commit), commitSHA(opts.SHA)
	base := serverBase(opts.ServerURL)
	if from == "" || to == "" || base == "" || opts.Repository == "" {
		return ""
	}
	return base + "/" + repoPath(opts.Repository) + "/compare/" + from + "..." + to
}

func known(b *strings.Builder, s *model.Summary) {
	if n := s.KnownFailures; n > 0 {
		fmt.Fprintf(b, "*%d of the failures %s on the known-failures list: reported, not failing the run.*\n\n",
			n, explain.Plural(n, "is", "are"))
	}
}

func changeTable(b *strings.Builder, run *model.Run, v model.Transition, changes []*model.Change, opts Options, l layout) {
	title := fmt.Sprintf("%s (%d)", explain.TransitionTitle(v), len(changes))
	if folded[v] {
		fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", escape.HTML(title))
	} else {
		fmt.Fprintf(b, "#### %s\n\n", title)
	}
	rows := l.changeRows
	if l.compact {
		rows = min(rows, maxCompactCauses)
	}
	if rows > 0 {
		b.WriteString("| Fixture | What changed | Base | Now |\n|:--|:--|:--|:--|\n")
	}
	groups := explain.ChangeGroups(changes)
	if v == model.Removed {
		explain.FailedOnBaseFirst(groups)
	}
	shown := 0
	for i, g := range groups {
		if i == rows {
			break
		}
		shown += len(g)
		changeRow(b, run, g, opts)
	}
	more(b, len(changes)-shown, restWhere(opts, l.selfLink, "the JSON report"))
	if folded[v] {
		b.WriteString("\n</details>\n")
	}
	b.WriteString("\n")
}

// changeRow is the row of the fixtures of one group of changes: a fixture
// alone, or the group counted with a few of them linked; what fails now
// with its message and the command that reproduces it.
func changeRow(b *strings.Builder, run *model.Run, g []*model.Change, opts Options) {
	c := run.Comparison
	fixture := changeFixture(run, g[0], opts)
	if len(g) > 1 {
		// A few, in every rendering: the column is narrow, and the
		// failures' tables and details below list each one.
		locs := firstOf(len(g), maxCompactListed, func(i int) string { return changeFixture(run, g[i], opts) })
		fixture = fmt.Sprintf("**%d fixtures**<br>", len(g)) + strings.Join(locs, " · ")
	}
	var bases, heads []*model.Side
	for _, ch := range g {
		bases, heads = append(bases, ch.Base), append(heads, ch.Head)
	}
	now := sidesText(heads)
	if why := explain.SideWhy(heads); why != "" && g[0].Content != model.Broken {
		now += "<br>" + cell(escape.Cap(why, maxWhy))
	}
	if h := g[0].Head; h != nil && !h.Passed && g[0].Transition != model.Removed {
		var rs []*model.Result
		for _, ch := range g {
			rs = append(rs, &model.Result{Path: ch.Path, RelPath: ch.RelPath})
		}
		now += "<br>" + reproduce(run, explain.Group{Results: rs})
	}
	fmt.Fprintf(b, "| %s | %s | %s | %s |\n", fixture, groupContent(c, g), sidesText(bases), now)
}

// groupContent is how the files of a group changed: the words of the
// first when all of them read alike, else the kind of change alone.
func groupContent(c *model.Comparison, g []*model.Change) string {
	first := contentText(c, g[0])
	for _, ch := range g[1:] {
		if contentText(c, ch) != first {
			if w := explain.ContentWords(g[0].Content); w != "" {
				return cell(w)
			}
			return explain.Absent
		}
	}
	return first
}

// sidesText is one run's verdict on a group's fixtures, as sideText words
// one, without the command indices when they differ.
func sidesText(sides []*model.Side) string {
	s := sides[0]
	if s != nil && !explain.SameIndices(sides) {
		c := *s
		c.Expected.CommandIndex, c.Actual.CommandIndex = nil, nil
		s = &c
	}
	return sideText(s)
}

// changeFixture is the fixture's location and name. A removed fixture is
// linked at the base commit, where it still exists. A fixture broken by
// the change is linked at the line where its file stops being readable:
// the comment has no failures' table to point there instead.
func changeFixture(run *model.Run, ch *model.Change, opts Options) string {
	r := &model.Result{Path: ch.Path, RelPath: ch.RelPath, Name: ch.Name}
	if ch.Transition == model.Removed {
		opts.SHA = run.Comparison.Commit
	} else if ch.Content == model.Broken {
		r.Span = brokenSpan(run, ch.RelPath)
	}
	s := location(r, opts)
	if n := explain.ShownName(r); n != "" {
		s += "<br>" + bold(n) // the name only when it is not the file's
	}
	return s
}

// brokenSpan is where the run's corpus error at relPath lies, or nil.
func brokenSpan(run *model.Run, relPath string) *model.Span {
	for i := range run.Results {
		if r := &run.Results[i]; r.RelPath == relPath && r.IsCorpusError() {
			return r.Span
		}
	}
	return nil
}

// contentText is how the fixture's file, or else the schema, changed, in
// the words of explain.ChangeIn, or Absent.
func contentText(c *model.Comparison, ch *model.Change) string {
	if t := explain.ChangeIn(c, ch); t != "" {
		return cell(escape.Cap(t, maxWhy))
	}
	return explain.Absent
}

// sideText is one run's verdict on the fixture: passed, or what it got.
func sideText(s *model.Side) string {
	if s == nil {
		return explain.Absent
	}
	if s.Passed {
		return "✅ passed"
	}
	if s.Actual.Outcome == model.CorpusError {
		return "❌ " + explain.CorpusError
	}
	known := ""
	if s.KnownFailure {
		known = "known failure: "
	}
	return "❌ " + known + "got " + cell(explain.ActualText(&model.Result{Actual: s.Actual, Expected: s.Expected}))
}
