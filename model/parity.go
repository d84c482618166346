package model

import (
	"bytes"
	"sort"
)

// MaxParityBytes bounds one readback kept for the Level 3 preview; a larger
// one is not compared.
const MaxParityBytes = 1 << 20

// FixtureSource names the fixture's own QueueSubmitReply data among the
// sources of a parity row.
const FixtureSource = "fixture data"

// ParityGroup is the sources that returned the same bytes for one readback.
type ParityGroup struct {
	// Sources are FixtureSource and implementation labels, fixture first,
	// then the implementations best first.
	Sources []string
	Size    int
	// Data is the bytes themselves (shared with the run, not a copy).
	Data []byte
	// FirstDiff is the first byte at which these bytes differ from the
	// reference group's (the end of the shorter when one is a prefix of
	// the other), or -1 for the reference group itself.
	FirstDiff int
	// Got and Want are the bytes at FirstDiff, here and in the reference
	// (-1 past the end).
	Got, Want int
}

// ParityRow compares one readback of one fixture across its sources: the
// Level 3 preview (CONFORMANCE.md defers Level 3 to 2.1, so a row is
// information). The first group is the reference: the fixture's own data
// when it carries any, else the best implementation's bytes.
type ParityRow struct {
	Path string
	// Readback is the zero-based index of the readback among all of the
	// fixture's readbacks, in stream order.
	Readback int
	Groups   []ParityGroup
	// Unusable are the sources whose data for this readback could not be
	// compared: not base64, or over MaxParityBytes (the fixture's own
	// QueueSubmitReply data can be either).
	Unusable []string
}

// Agree reports whether every source returned the same bytes.
func (r *ParityRow) Agree() bool { return len(r.Groups) == 1 }

// Parity compares the readback bytes of every positive fixture that at
// least two sources answered: the fixture's own data and the implementations
// that passed Level 2 on it. Rows come in corpus order, then readback order.
func Parity(run *Run) []ParityRow {
	order := RankImplementations(run.Implementations)
	var rows []ParityRow
	for _, p := range readbackPaths(run) {
		sources := paritySources(run, order, p)
		n := 0
		for _, s := range sources {
			n = max(n, len(s.data))
		}
		for k := 0; k < n; k++ {
			if row := parityRow(p, k, sources); row != nil {
				rows = append(rows, *row)
			}
		}
	}
	return rows
}

// paritySource is one source's readbacks of one fixture, in stream order;
// a nil readback could not be compared.
type paritySource struct {
	label string
	data  [][]byte
}

// readbackPaths are the fixtures some source returned readbacks for, in
// corpus order, then (those the run has no result for) by path.
func readbackPaths(run *Run) []string {
	paths := map[string]bool{}
	for p := range run.FixtureReadbacks {
		paths[p] = true
	}
	for i := range run.Implementations {
		for p := range run.Implementations[i].Readbacks {
			paths[p] = true
		}
	}
	position := map[string]int{}
	for i := range run.Results {
		position[run.Results[i].RelPath] = i
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Slice(sorted, func(a, b int) bool {
		pa, okA := position[sorted[a]]
		pb, okB := position[sorted[b]]
		if okA != okB {
			return okA
		}
		if pa != pb {
			return pa < pb
		}
		return sorted[a] < sorted[b]
	})
	return sorted
}

// paritySources are the readbacks of fixture p: the fixture's own first,
// then the implementations in order (best first).
func paritySources(run *Run, order []int, p string) []paritySource {
	var sources []paritySource
	if d, ok := run.FixtureReadbacks[p]; ok {
		sources = append(sources, paritySource{FixtureSource, d})
	}
	for _, i := range order {
		im := &run.Implementations[i]
		if d, ok := im.Readbacks[p]; ok {
			sources = append(sources, paritySource{im.Label(), d})
		}
	}
	return sources
}

// parityRow groups the sources' bytes for readback k of fixture p, the
// first bytes seen being the reference; nil when fewer than two sources
// could be compared.
func parityRow(p string, k int, sources []paritySource) *ParityRow {
	var groups []ParityGroup
	var unusable []string
	count := 0
	for _, s := range sources {
		if k >= len(s.data) {
			continue
		}
		b := s.data[k]
		if b == nil {
			unusable = append(unusable, s.label)
			continue
		}
		count++
		if g := groupOf(groups, b); g >= 0 {
			groups[g].Sources = append(groups[g].Sources, s.label)
			continue
		}
		g := ParityGroup{Sources: []string{s.label}, Size: len(b), Data: b, FirstDiff: -1, Got: -1, Want: -1}
		if len(groups) > 0 {
			g.FirstDiff, g.Got, g.Want = firstDiff(b, groups[0].Data)
		}
		groups = append(groups, g)
	}
	if count < 2 {
		return nil
	}
	return &ParityRow{Path: p, Readback: k, Groups: groups, Unusable: unusable}
}

// groupOf is the index of the group holding bytes b, or -1.
func groupOf(groups []ParityGroup, b []byte) int {
	for g := range groups {
		if bytes.Equal(groups[g].Data, b) {
			return g
		}
	}
	return -1
}

// firstDiff finds the first byte at which b differs from ref.
func firstDiff(b, ref []byte) (at, got, want int) {
	for i := 0; i < len(b) && i < len(ref); i++ {
		if b[i] != ref[i] {
			return i, int(b[i]), int(ref[i])
		}
	}
	at, got, want = min(len(b), len(ref)), -1, -1
	if at < len(b) {
		got = int(b[at])
	}
	if at < len(ref) {
		want = int(ref[at])
	}
	return at, got, want
}

// ParityDiffering counts the rows whose sources disagree.
func ParityDiffering(rows []ParityRow) int {
	n := 0
	for i := range rows {
		if !rows[i].Agree() {
			n++
		}
	}
	return n
}

// ParityCounts says, for the implementation labelled label, how many rows
// compared its bytes and in how many they were the reference's.
func ParityCounts(rows []ParityRow, label string) (compared, agreed int) {
	for _, r := range rows {
		for g, grp := range r.Groups {
			for _, s := range grp.Sources {
				if s == label {
					compared++
					if g == 0 {
						agreed++
					}
				}
			}
		}
	}
	return compared, agreed
}
