package explain

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// ThisChange marks a move of the fixture's own file: the pull request
// (or push) being compared made it, not the validator.
const ThisChange = " (this change)"

// Change says in words how a fixture of a comparison changed, the same in
// every report: how its file changed ("expectation changed: code
// DRP2_ERR_X → DRP2_ERR_Y (this change)", "broken: invalid JSON: ...",
// "renamed from old/path.json", "stream changed from command 2: 1 added,
// 2 → 3 commands"), and, for a fixture that
// was fixed or regressed though its result did not move, that the
// expectation moved instead. Empty for a file that did not change. Plain
// text; each sink escapes it.
func Change(ch *model.Change) string {
	var parts []string
	switch ch.Content {
	case model.ContentSame:
	case model.Renamed:
		parts = append(parts, "renamed from "+ch.From)
	case model.Broken:
		s := "broken"
		if ch.Head != nil && ch.Head.Actual.Message != "" {
			s += ": " + oneLine(ch.Head.Actual.Message)
		}
		parts = append(parts, s)
	case model.ExpectationChanged:
		s := ContentWords(ch.Content)
		if ch.Base != nil && ch.Head != nil {
			if moves := ExpectationMoves(ch.Base.Expected, ch.Head.Expected); len(moves) > 0 {
				s += ": " + strings.Join(moves, ", ") + ThisChange
			}
		}
		parts = append(parts, s)
	case model.StreamChanged:
		parts = append(parts, ContentWords(ch.Content)+StreamWords(ch.Stream))
	default:
		parts = append(parts, ContentWords(ch.Content))
	}
	if (ch.Transition == model.Fixed || ch.Transition == model.Regressed) && ch.Base != nil && ch.Head != nil &&
		ch.Content != model.Broken && sameActual(ch.Base.Actual, ch.Head.Actual) {
		parts = append(parts, "the result did not move; the expectation did")
	}
	return strings.Join(parts, "; ")
}

// StreamWords says which commands of a changed stream differ, after
// "stream changed": " from command 2: 1 changed, 1 added, 12 → 13
// commands" ("9 commands" when both have as many); "" when that is not
// known.
func StreamWords(d *model.StreamDiff) string {
	if d == nil {
		return ""
	}
	var counts []string
	for _, c := range []struct {
		n    int
		verb string
	}{{d.Changed, "changed"}, {d.Added, "added"}, {d.Removed, "removed"}} {
		if c.n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", c.n, c.verb))
		}
	}
	length := fmt.Sprintf("%d%s%d commands", d.BaseCommands, Arrow, d.HeadCommands)
	if d.BaseCommands == d.HeadCommands {
		length = fmt.Sprintf("%d commands", d.HeadCommands)
	}
	return fmt.Sprintf(" from command %d: %s, %s", d.First, strings.Join(counts, ", "), length)
}

// ExpectationMoves lists each member of the expected block that differs
// between base and head, old → new: "command_index 6 → 7", "code
// DRP2_ERR_X → DRP2_ERR_Y".
func ExpectationMoves(base, head model.Expected) []string {
	var out []string
	move := func(name, old, new string) {
		if old != new {
			out = append(out, oneLine(name+" "+orAbsent(old)+Arrow+orAbsent(new)))
		}
	}
	move("outcome", base.Outcome, head.Outcome)
	move("phase", base.Phase, head.Phase)
	move("code", base.Code, head.Code)
	move("command_index", index(base.CommandIndex), index(head.CommandIndex))
	return out
}

func sameActual(a, b model.Actual) bool {
	return a.Outcome == b.Outcome && a.Phase == b.Phase && a.Code == b.Code && index(a.CommandIndex) == index(b.CommandIndex)
}

// transitionTitles are the human names of the transitions, for headings.
var transitionTitles = map[model.Transition]string{
	model.Regressed:    "Regressed",
	model.Fixed:        "Fixed",
	model.AddedFailing: "Added, failing",
	model.AddedPassing: "Added, passing",
	model.Removed:      "Removed",
	model.StillFailing: "Still failing",
	model.StillPassing: "Passing, content changed",
}

// TransitionTitle is the human name of a transition, for headings; an
// unknown transition is named as it is spelled.
func TransitionTitle(v model.Transition) string { return title(transitionTitles, v, string(v)) }

// ContentWords is a content change in the words every report uses, the
// same in the headline, the tables and the text report: "expectation
// changed", "stream changed", "renamed", "metadata changed", "broken"; ""
// for ContentSame.
func ContentWords(c model.ContentChange) string {
	return strings.ReplaceAll(string(c), "_", " ")
}

// ComparisonHeadline is the delta in one line of plain text, for titles
// and lead sentences: "2 regressed (1 broken), 3 fixed, 5 added against
// base abc1234". Each fixture is counted once: by its transition, with how
// its file changed in parentheses, or, when its result did not move, by the
// change alone ("1 renamed"). Parts that are zero are left out; with no
// change it says so; "" without a comparison. Implementations with new
// failures lead: "implementation x 1.0: 18 new failures; 1 fixed against
// base abc1234". It names the base as given,
// so sinks escape it like any other text.
func ComparisonHeadline(c *model.Comparison) string {
	if c == nil {
		return ""
	}
	if c.Unavailable != "" {
		return "no comparison with the base"
	}
	// content[v] counts the content changes of the fixtures of transition v,
	// in the order of headlineOrder.
	content := map[model.Transition]map[model.ContentChange]int{}
	count := map[model.Transition]int{}
	for i := range c.Changes {
		ch := &c.Changes[i]
		v := ch.Transition
		if v == model.AddedPassing {
			v = model.AddedFailing // one "added" part
		}
		count[v]++
		if ch.Content != model.ContentSame {
			if content[v] == nil {
				content[v] = map[model.ContentChange]int{}
			}
			content[v][ch.Content]++
		}
	}
	var parts []string
	changes := func(v model.Transition) []string {
		var out []string
		for _, cc := range headlineOrder {
			if n := content[v][cc]; n > 0 {
				out = append(out, fmt.Sprintf("%d %s", n, ContentWords(cc)))
			}
		}
		return out
	}
	for _, v := range []model.Transition{model.Regressed, model.Fixed, model.AddedFailing, model.Removed} {
		if count[v] == 0 {
			continue
		}
		word := string(v)
		if v == model.AddedFailing {
			word = "added"
		}
		part := fmt.Sprintf("%d %s", count[v], word)
		if in := changes(v); len(in) > 0 && v != model.AddedFailing {
			part += " (" + strings.Join(in, ", ") + ")"
		}
		if v == model.Removed {
			part += " (" + removedNames(c.Changes) + ")"
		}
		parts = append(parts, part)
	}
	// Fixtures whose result did not move are counted by their change.
	still := map[model.ContentChange]int{}
	for _, v := range []model.Transition{model.StillFailing, model.StillPassing} {
		for cc, n := range content[v] {
			still[cc] += n
		}
	}
	for _, cc := range headlineOrder {
		if n := still[cc]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, ContentWords(cc)))
		}
	}
	if c.SchemasChanged() {
		parts = append(parts, schemaHeadline(c))
	}
	return brokenFirst(c, parts) + " against base " + c.Base
}

// brokenFirst joins the parts of the comparison's headline after the
// implementations the pull request broke, which lead: the fixtures may
// not have changed at all. "no change" when there is nothing to say.
func brokenFirst(c *model.Comparison, parts []string) string {
	text := strings.Join(parts, ", ")
	var broke []string
	for _, b := range ImplementationsBroken(c) {
		broke = append(broke, strings.TrimSuffix(b, " against base "+c.Base))
	}
	switch {
	case len(broke) > 0 && text != "":
		return strings.Join(broke, "; ") + "; " + text
	case len(broke) > 0:
		return strings.Join(broke, "; ")
	case text == "":
		return "no change"
	}
	return text
}

// headlineOrder is the order the headline names content changes in: the
// broken file first, the likeliest cause of red. A change of metadata
// alone (a re-indented file, a new description) is left to the tables.
var headlineOrder = []model.ContentChange{model.Broken, model.ExpectationChanged, model.StreamChanged, model.Renamed}

// maxSchemaFiles bounds the changed schema files a headline or a line
// names; the JSON report lists them all.
const maxSchemaFiles = 3

// maxHeadlineError bounds the schema error quoted in a headline, which
// titles and lead sentences show whole.
const maxHeadlineError = 200

// schemaChange says which schemas changed and which files of them, for a
// comparison whose schemas changed: "command schema changed:
// commands/CreateBuffer.json", "command and fixture schemas changed"
// (a base without closures names no files); "" when none did. Plain
// text; each sink escapes it.
func schemaChange(c *model.Comparison) string {
	if !c.SchemasChanged() {
		return ""
	}
	s := schemasChanged(c)
	files := append(append([]string(nil), c.CommandSchemaFiles...), c.FixtureSchemaFiles...)
	if len(files) > 0 {
		s += ": " + SchemaFiles(files, oneLine)
	}
	return s
}

// schemasChanged names the schemas that changed.
func schemasChanged(c *model.Comparison) string {
	switch {
	case c.CommandSchemaChanged && c.FixtureSchemaChanged:
		return "command and fixture schemas changed"
	case c.FixtureSchemaChanged:
		return "fixture schema changed"
	}
	return "command schema changed"
}

// SchemaFiles names changed schema files, the first few of them, each as
// name gives it (a sink's escaping): "a.json, b.json, c.json and 4 more".
func SchemaFiles(files []string, name func(string) string) string {
	n := min(len(files), maxSchemaFiles)
	names := make([]string, n)
	for i := range names {
		names[i] = name(files[i])
	}
	s := strings.Join(names, ", ")
	if len(files) > n {
		s += fmt.Sprintf(" and %d more", len(files)-n)
	}
	return s
}

// schemaFailureText says which error a schema change now gives: "336
// fixtures now fail with: CreateBuffer: ...", or "336 fixtures now fail a
// schema phase, 300 of them with: ...", or "" when no fixture newly fails
// one. The error is quoted by quote (a sink's escaping), after max bounds
// it (0: whole).
func schemaFailureText(f *model.SchemaFailure, max int, quote func(string) string) string {
	if f == nil {
		return ""
	}
	msg := oneLine(f.Message)
	if max > 0 {
		msg = escape.Clip(msg, max)
	}
	s := fmt.Sprintf("%d %s", f.All, Plural(f.All, "fixture now fails", "fixtures now fail"))
	if f.Fixtures == f.All {
		return s + " with: " + quote(msg)
	}
	return s + fmt.Sprintf(" a schema phase, %d of them with: %s", f.Fixtures, quote(msg))
}

// SchemaFailureLine is schemaFailureText whole, with the fixture it was
// taken from: for the lines under a comparison's headline.
func SchemaFailureLine(f *model.SchemaFailure, quote func(string) string) string {
	if f == nil {
		return ""
	}
	return schemaFailureText(f, 0, quote) + " (first: " + quote(oneLine(f.Path)) + ")"
}

// schemaHeadline is the headline's part on a schema change: what changed
// and, in parentheses, the error it now gives.
func schemaHeadline(c *model.Comparison) string {
	s := schemaChange(c)
	if f := schemaFailureText(c.SchemaFailure, maxHeadlineError, oneLine); f != "" {
		s += " (" + f + ")"
	}
	return s
}

// ChangeIn is Change for a fixture of comparison c, and, for a fixture
// of both runs whose file did not change while a schema did, which schema
// changed ("command schema changed"): what changed for it is the schema
// it is checked against. The files are named once, above the tables.
func ChangeIn(c *model.Comparison, ch *model.Change) string {
	if t := Change(ch); t != "" || ch.Base == nil || ch.Head == nil || !c.SchemasChanged() {
		return t
	}
	return schemasChanged(c)
}

// ImplementationDelta words one implementation against the base, after
// its label: "against python-example 0.1 on the base: 1 regressed, 2
// fixed, 3 added (1 failing)", or that the base had no such
// implementation.
func ImplementationDelta(d *model.ImplementationDelta) string {
	added := len(d.AddedFailing) + d.AddedPassing
	counts := fmt.Sprintf("%d regressed, %d fixed, %d added", len(d.Regressed), len(d.Fixed), added)
	if len(d.AddedFailing) > 0 {
		counts += fmt.Sprintf(" (%d failing)", len(d.AddedFailing))
	}
	if d.Base == "" {
		return "not on the base (every fixture is added): " + counts
	}
	return "against " + CleanLine(d.Base) + " on the base: " + counts
}
