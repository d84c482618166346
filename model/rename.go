package model

// MatchRenames pairs fixtures that are one fixture moved: gone are the
// digests of fixtures whose path is only on the old side, added those of
// fixtures whose path is only on the new side, each in path order. It
// returns, for each index of added that was a rename, the index of gone it
// came from. Fixtures with the same file bytes are paired first, then
// those with the same commands and expected block (renamed and reworded);
// within each, in path order. A digest without the sums a pass needs
// takes no part in it.
func MatchRenames(gone, added []Digest) map[int]int {
	from := map[int]int{}
	taken := map[int]bool{}
	for _, key := range []func(Digest) string{fileKey, bodyKey} {
		byKey := map[string][]int{}
		for i, d := range gone {
			if k := key(d); k != "" && !taken[i] {
				byKey[k] = append(byKey[k], i)
			}
		}
		for j, d := range added {
			if _, done := from[j]; done {
				continue
			}
			k := key(d)
			if idx := byKey[k]; k != "" && len(idx) > 0 {
				from[j], taken[idx[0]] = idx[0], true
				byKey[k] = idx[1:]
			}
		}
	}
	return from
}

func fileKey(d Digest) string { return d.File }

// bodyKey is what a fixture tests: its commands and expectation, whatever
// its name and prose say.
func bodyKey(d Digest) string {
	if d.Commands == "" || d.Expected == "" {
		return ""
	}
	return d.Commands + " " + d.Expected
}
