package explain

import (
	"sort"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Group is failing fixtures that fail for one cause: the same wrong
// result with the same message, once the parts that name the fixture's
// own values are set aside. A validator or schema change that breaks
// many fixtures then reads as one decision, whatever each of them expected.
type Group struct {
	Results []*model.Result
}

// Groups splits failing results into groups by cause, the largest first
// (the one decision that broke most), then in the order their first
// fixture comes. Corpus errors each stand alone: each file is broken in its
// own way.
func Groups(results []*model.Result) []Group {
	var out []Group
	at := map[string]int{}
	for _, r := range results {
		if r.IsCorpusError() {
			out = append(out, Group{Results: []*model.Result{r}})
			continue
		}
		k := CauseKey(r.Expected, r.Actual, r.KnownFailure)
		if i, ok := at[k]; ok {
			out[i].Results = append(out[i].Results, r)
			continue
		}
		at[k] = len(out)
		out = append(out, Group{Results: []*model.Result{r}})
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Results) > len(out[j].Results) })
	return out
}

// ImplementationGroups splits an implementation's failing results into
// groups by cause, as Groups does the validator's, then joins those that
// differ in their message alone: a runtime's message is its own free text,
// naming each fixture's command and object ("[Buffer "b3"] used in
// submit", "[Texture "t1"] destroyed"), and one wrong error code is one
// cause however it words it. Its words are kept as examples (Group.Why).
// An answer that is no verdict (a crash, a timeout) keeps its message: it
// is the one thing that tells them apart.
func ImplementationGroups(results []*model.Result) []Group {
	var out []Group
	at := map[string]int{}
	for _, g := range Groups(results) {
		r := g.Results[0]
		a, e := r.Actual, r.Expected
		if r.IsCorpusError() || a.Outcome == model.HarnessError {
			out = append(out, g)
			continue
		}
		k := strings.Join([]string{string(a.Outcome), string(a.Phase), a.Code, r.KnownFailure, oneLine(a.Rule), e.Outcome, e.Phase, e.Code}, "\x00")
		if i, ok := at[k]; ok {
			out[i].Results = append(out[i].Results, g.Results...)
			continue
		}
		at[k] = len(out)
		out = append(out, g)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Results) > len(out[j].Results) })
	return out
}

// CauseKey is what the results of one cause share: the actual outcome,
// phase and code, and whether the failure is known, with its reason; then
// the rule applied with the expected outcome, phase and code, when the
// tool names a rule: the message of one rule names each fixture's own
// command and object kind ("DestroyBuffer: buffer …", "DestroyTexture:
// texture …"), and is one decision all the same. Without a rule, the
// message with its numbers and quoted values set aside (they name the
// fixture's commands, sizes and ids). The command index is left out: one
// schema edit fails each fixture at its own command. The expected block
// counts too when the tool said nothing (no message, no rule): "got
// success" for fixtures that each expect their own error is as many
// causes as there are expectations.
func CauseKey(e model.Expected, a model.Actual, known string) string {
	parts := []string{string(a.Outcome), string(a.Phase), a.Code, known}
	msg := oneLine(message(a))
	switch rule := oneLine(a.Rule); {
	case rule != "":
		parts = append(parts, rule, e.Outcome, e.Phase, e.Code)
	case msg != "":
		parts = append(parts, shape(msg))
	default:
		parts = append(parts, e.Outcome, e.Phase, e.Code)
	}
	return strings.Join(parts, "\x00")
}

// message is the tool's message without the rule it ends with.
func message(a model.Actual) string { return Message(&model.Result{Actual: a}) }

// Cause says in one line how a group's fixtures fail: what differs, as
// for one fixture, when they all differ alike ("expected command 1, got
// command 2"); else what they expected, summed up, and what they got
// ("expected semantic_validation DRP2_ERR_USAGE or 6 other results, got
// schema_validation DRP2_ERR_INVALID_ARGUMENT"). A command index is left
// out when the fixtures disagree on it. The rule, when there is one,
// comes first.
func (g Group) Cause() string {
	if r := g.Results[0]; r.Actual.Outcome == model.Success && r.Expected.Outcome == string(model.Success) {
		// The verdict matched but something after it did not (the
		// replies of the runtime harness's Level 2): the message says
		// what, as Headline words one fixture's.
		return "success, but " + g.Why()
	}
	d := g.differences()
	if rule := oneLine(g.Results[0].Actual.Rule); rule != "" {
		return rule + ": " + d
	}
	return d
}

func (g Group) differences() string {
	first := strings.Join(Differences(g.Results[0]), ", ")
	same := true
	for _, r := range g.Results[1:] {
		if strings.Join(Differences(r), ", ") != first {
			same = false
			break
		}
	}
	if same {
		return first
	}
	a := g.Results[0].Actual
	if !sameIndices(g.Results) {
		a.CommandIndex = nil
	}
	exp, got := g.expectedText(), actual(a)
	if exp == got {
		// The result is the expected one, at other commands: with the
		// indices left out the two would read alike.
		return "expected " + exp + ", got it at another command than each fixture names"
	}
	return "expected " + exp + ", got " + got
}

// expectedText sums up what a group's fixtures expected: the one
// expectation they share, else the first and how many others.
func (g Group) expectedText() string {
	var distinct []string
	seen := map[string]bool{}
	for _, r := range g.Results {
		e := r.Expected
		e.CommandIndex = nil
		if t := expected(e); !seen[t] {
			seen[t] = true
			distinct = append(distinct, t)
		}
	}
	if len(distinct) <= 2 {
		return strings.Join(distinct, " or ")
	}
	return distinct[0] + " or " + Count(len(distinct)-1, "other result", "other results")
}

// Why is the group's one message and rule in one line, as Why words a
// single fixture's, with the parts that differ from fixture to fixture
// shown as "…" ("command …: CreateBuffer: /size: … not multipleOf 256").
// Fixtures of one rule whose messages differ in their words keep them as
// examples, the wording of most fixtures first: "DestroyBuffer: buffer …
// still referenced; e.g. also DestroyTexture: texture … still referenced
// (LIFETIMES.md … rule 5)".
func (g Group) Why() string {
	var order []string
	byShape := map[string][]string{}
	for _, r := range g.Results {
		m := oneLine(Message(r))
		k := shape(m)
		if _, ok := byShape[k]; !ok {
			order = append(order, k)
		}
		byShape[k] = append(byShape[k], m)
	}
	sort.SliceStable(order, func(i, j int) bool { return len(byShape[order[i]]) > len(byShape[order[j]]) })
	msg := Template(byShape[order[0]])
	if n := len(order); n > 1 {
		msg += "; e.g. also " + Template(byShape[order[1]])
		if n > 2 {
			msg += " and " + Count(n-2, "other wording", "other wordings")
		}
	}
	r := *g.Results[0]
	r.Actual.Message, r.Actual.Rule = msg, oneLine(r.Actual.Rule)
	return Why(&r)
}

// sameIndices reports whether the results agree on both command indices.
func sameIndices(rs []*model.Result) bool {
	for _, r := range rs[1:] {
		if expectedIndex(r.Expected) != expectedIndex(rs[0].Expected) ||
			index(r.Actual.CommandIndex) != index(rs[0].Actual.CommandIndex) {
			return false
		}
	}
	return true
}

// Paths are the display paths of the group's fixtures.
func (g Group) Paths() []string {
	out := make([]string, len(g.Results))
	for i, r := range g.Results {
		out[i] = DisplayPath(r)
	}
	return out
}

// Template is the one message of messages of one shape (see CauseKey):
// each number or quoted value they all share kept, each other one shown
// as "…". Messages of different shapes give the first.
func Template(messages []string) string {
	if len(messages) == 0 {
		return ""
	}
	first := tokens(messages[0])
	for _, m := range messages[1:] {
		other := tokens(m)
		if len(other) != len(first) {
			return messages[0]
		}
		for i := range first {
			if first[i].variable && other[i].text != first[i].text {
				first[i].text = "…"
			}
		}
	}
	var b strings.Builder
	for _, t := range first {
		b.WriteString(t.text)
	}
	return b.String()
}

// shape is a message with every number and quoted value replaced by one
// mark, so that messages differing only in those compare equal.
func shape(msg string) string {
	var b strings.Builder
	for _, t := range tokens(msg) {
		if t.variable {
			b.WriteString("\x01")
		} else {
			b.WriteString(t.text)
		}
	}
	return b.String()
}

// token is a piece of a message: literal text, or a value that names
// something of one fixture (a run of digits, a quoted string).
type token struct {
	text     string
	variable bool
}

// tokens splits a message into literal text and values. A quote that
// does not close on the message is literal (an apostrophe).
func tokens(msg string) []token {
	var out []token
	lit := 0 // start of the pending literal text
	flush := func(i int) {
		if i > lit {
			out = append(out, token{text: msg[lit:i]})
		}
	}
	for i := 0; i < len(msg); {
		c := msg[i]
		end := -1
		switch {
		case c >= '0' && c <= '9':
			end = i + 1
			for end < len(msg) && msg[end] >= '0' && msg[end] <= '9' {
				end++
			}
		case c == '\'' || c == '"' || c == '`':
			if j := strings.IndexByte(msg[i+1:], c); j >= 0 {
				end = i + 1 + j + 1
			}
		}
		if end < 0 {
			i++
			continue
		}
		flush(i)
		out = append(out, token{text: msg[i:end], variable: true})
		i, lit = end, end
	}
	flush(len(msg))
	return out
}

// Count is "1 fixture" or "2 fixtures": n and its noun.
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Plural(n, one, many)
}

// ChangeGroups splits the changes of one verdict into groups that changed
// alike, the largest first: the same change of file, and on the base and
// now the same result for the same cause (see CauseKey). A schema edit
// that fails hundreds of fixtures is then one row of the comparison, as it
// is one row of the failures.
func ChangeGroups(changes []*model.Change) [][]*model.Change {
	var out [][]*model.Change
	at := map[string]int{}
	for _, ch := range changes {
		k := string(ch.Content) + "\x02" + sideKey(ch.Base) + "\x02" + sideKey(ch.Head)
		if ch.Content == model.Broken {
			k += "\x02" + ch.RelPath // each file is broken in its own way
		}
		if i, ok := at[k]; ok {
			out[i] = append(out[i], ch)
			continue
		}
		at[k] = len(out)
		out = append(out, []*model.Change{ch})
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// sideKey is one side's result for ChangeGroups: absent, passed, or its
// cause, a known failure apart.
func sideKey(s *model.Side) string {
	switch {
	case s == nil:
		return "absent"
	case s.Passed:
		return "passed"
	case s.KnownFailure:
		return "known\x02" + CauseKey(s.Expected, s.Actual, "")
	}
	return CauseKey(s.Expected, s.Actual, "")
}

// SideWhy is the one message and rule of the sides of one group of
// changes, as Group.Why words them; "" when there is none.
func SideWhy(sides []*model.Side) string {
	var rs []*model.Result
	for _, s := range sides {
		if s != nil && !s.Passed {
			rs = append(rs, &model.Result{Expected: s.Expected, Actual: s.Actual})
		}
	}
	if len(rs) == 0 || rs[0].IsCorpusError() {
		return ""
	}
	return Group{Results: rs}.Why()
}

// SameIndices reports whether the sides agree on their command indices,
// so that a group's row may name them.
func SameIndices(sides []*model.Side) bool {
	var rs []*model.Result
	for _, s := range sides {
		if s != nil {
			rs = append(rs, &model.Result{Expected: s.Expected, Actual: s.Actual})
		}
	}
	return len(rs) == 0 || sameIndices(rs)
}
