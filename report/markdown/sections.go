package markdown

// The failing fixtures of a report, by section and cause, each piece
// rendered once whatever the layout tried.

import (
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// pieces are the parts of a report whose text does not depend on how
// much of the report fits: the failing fixtures by section and cause, and
// each fixture's detail block and each cause's table row.
type pieces struct {
	sections map[bool][]section // by whether listedAbove applies
	blocks   map[*model.Result]string
	rows     map[*model.Result]string // by the cause's first fixture
}

// sectionsOf are sections(run, listedAbove(run, l)) (listed) or
// sections(run, nil), computed once per memo.
func sectionsOf(run *model.Run, l layout, listed bool) []section {
	skip := map[string]bool(nil)
	if listed {
		skip = listedAbove(run, l)
	}
	if l.memo == nil {
		return sections(run, skip)
	}
	if l.memo.sections == nil {
		l.memo.sections = map[bool][]section{}
	}
	secs, ok := l.memo.sections[listed]
	if !ok {
		secs = sections(run, skip)
		l.memo.sections[listed] = secs
	}
	return secs
}

func rowsOf(l layout) *map[*model.Result]string {
	if l.memo == nil {
		return nil
	}
	return &l.memo.rows
}

func blocksOf(l layout) *map[*model.Result]string {
	if l.memo == nil {
		return nil
	}
	return &l.memo.blocks
}

// once renders a piece keyed by r in *m, or afresh when m is nil (no
// memo).
func once(m *map[*model.Result]string, r *model.Result, write func(*strings.Builder)) string {
	if m != nil {
		if s, ok := (*m)[r]; ok {
			return s
		}
	}
	var b strings.Builder
	write(&b)
	if m != nil {
		if *m == nil {
			*m = map[*model.Result]string{}
		}
		(*m)[r] = b.String()
	}
	return b.String()
}

// section is one kind of failing fixtures.
type section struct {
	title   string
	results []*model.Result // in corpus order
	groups  []explain.Group // the results by cause, the largest first
	corpus  bool            // unusable fixtures: no expected-against-actual
}

// sections are the failing fixtures by kind, corpus errors first: a file
// the change broke is the likeliest cause of red. A cause is kept whole:
// schema negatives are apart unless they fail for a cause other fixtures
// share, which then reads as the one decision it is. The results in skip
// (by corpus path) are left out: the comparison lists them already.
func sections(run *model.Run, skip map[string]bool) []section {
	var failing, corpus []*model.Result
	for i := range run.Results {
		r := &run.Results[i]
		switch {
		case r.Passed || skip[r.RelPath] || r.DetailLeftOut:
			// A failure without its detail is counted (leftOut), not
			// listed: it cannot say its cause.
		case r.IsCorpusError():
			corpus = append(corpus, r)
		default:
			failing = append(failing, r)
		}
	}
	drp := section{title: "Failing fixtures"}
	schema := section{title: "Failing schema-negative fixtures"}
	in := map[*model.Result]*section{}
	for _, g := range explain.Groups(failing) {
		sec := &schema
		for _, r := range g.Results {
			if r.Class != model.ClassSchemaNegative {
				sec = &drp
			}
		}
		sec.groups = append(sec.groups, g)
		for _, r := range g.Results {
			in[r] = sec
		}
	}
	for _, r := range failing {
		in[r].results = append(in[r].results, r)
	}
	all := []section{{title: "Corpus errors", results: corpus, groups: explain.Groups(corpus), corpus: true}, drp, schema}
	var out []section
	for _, s := range all {
		if len(s.results) > 0 {
			if len(skip) > 0 {
				s.title += " not listed above"
			}
			out = append(out, s)
		}
	}
	return out
}

// listedAbove are the fixtures the compact comment's comparison lists
// (regressed, added and failing), by corpus path, so that no failure is
// listed twice; nil for any other rendering.
func listedAbove(run *model.Run, l layout) map[string]bool {
	c := run.Comparison
	if !l.compact || c == nil || c.Unavailable != "" {
		return nil
	}
	out := map[string]bool{}
	for _, ch := range c.Changes {
		if !folded[ch.Transition] && ch.Head != nil && !ch.Head.Passed {
			out[ch.RelPath] = true
		}
	}
	return out
}

// longestList is the length of the longest list a report can show.
func longestList(run *model.Run) int {
	n := len(run.Findings)
	if c := run.Comparison; c != nil && len(c.Changes) > n {
		n = len(c.Changes)
	}
	for _, s := range sectionsOf(run, layout{}, false) {
		if len(s.results) > n {
			n = len(s.results)
		}
	}
	return n
}
