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
	var rows []ParityRow
	for _, p := range sorted {
		type source struct {
			label string
			data  [][]byte
		}
		var sources []source
		if d, ok := run.FixtureReadbacks[p]; ok {
			sources = append(sources, source{FixtureSource, d})
		}
		for _, i := range order {
			im := &run.Implementations[i]
			if d, ok := im.Readbacks[p]; ok {
				sources = append(sources, source{im.Label(), d})
			}
		}
		n := 0
		for _, s := range sources {
			n = max(n, len(s.data))
		}
		for k := 0; k < n; k++ {
			var groups []ParityGroup
			var ref []byte
			var kept [][]byte
			var unusable []string
			for _, s := range sources {
				if k >= len(s.data) {
					continue
				}
				if s.data[k] == nil {
					unusable = append(unusable, s.label)
					continue
				}
				b := s.data[k]
				found := false
				for g := range groups {
					if bytes.Equal(kept[g], b) {
						groups[g].Sources = append(groups[g].Sources, s.label)
						found = true
						break
					}
				}
				if found {
					continue
				}
				g := ParityGroup{Sources: []string{s.label}, Size: len(b), Data: b, FirstDiff: -1, Got: -1, Want: -1}
				if ref == nil {
					ref = b
				} else {
					g.FirstDiff, g.Got, g.Want = firstDiff(b, ref)
				}
				groups = append(groups, g)
				kept = append(kept, b)
			}
			count := 0
			for _, g := range groups {
				count += len(g.Sources)
			}
			if count >= 2 {
				rows = append(rows, ParityRow{Path: p, Readback: k, Groups: groups, Unusable: unusable})
			}
		}
	}
	return rows
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
