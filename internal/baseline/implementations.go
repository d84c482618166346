package baseline

import "github.com/drp2/drp2-fixtures/model"

// CompareImplementations compares each implementation of head with the
// one of base it matches (MatchImplementation), fixture by fixture, keyed
// by corpus path. An implementation that could not be used on either side
// has no verdicts to compare and is left out. A base that ran no
// implementation (a report of a run without them) says nothing of any:
// there is nothing to compare. With matchedOnly, an implementation the
// base has no match for is left out too, rather than added: the base's
// implementations were made for this run's own (a base commit or
// folder), and one merged from another job's report could not be.
func CompareImplementations(base, head *model.Run, matchedOnly bool) []model.ImplementationDelta {
	if len(base.Implementations) == 0 {
		return nil
	}
	var out []model.ImplementationDelta
	for i := range head.Implementations {
		him := &head.Implementations[i]
		if him.Error != "" {
			continue
		}
		d := model.ImplementationDelta{Label: him.Label()}
		baseAt := map[string]*model.Result{}
		bim := MatchImplementation(base.Implementations, him)
		if bim == nil && matchedOnly {
			continue
		}
		if bim != nil && bim.Error == "" {
			d.Base = bim.Label()
			for j := range bim.Results {
				if r := &bim.Results[j]; r.Actual.Outcome != model.NotClaimed {
					baseAt[r.RelPath] = r
				}
			}
		}
		for j := range him.Results {
			r := &him.Results[j]
			if r.Actual.Outcome == model.NotClaimed {
				continue
			}
			b, ok := baseAt[r.RelPath]
			switch {
			case !ok && r.Passed:
				d.AddedPassing++
			case !ok:
				d.AddedFailing = append(d.AddedFailing, r.Path)
			case b.Passed && !r.Passed:
				d.Regressed = append(d.Regressed, r.Path)
			case !b.Passed && r.Passed:
				d.Fixed = append(d.Fixed, r.Path)
			}
		}
		out = append(out, d)
	}
	return out
}

// MatchImplementation is the implementation of base that im is compared
// with: the one of the same name and version, else the first of the same
// name (a pull request builds a new version of the runtime), else, for an
// implementation that says no name, the one started by the same command
// line; nil when there is none.
func MatchImplementation(base []model.Implementation, im *model.Implementation) *model.Implementation {
	var sameName *model.Implementation
	for i := range base {
		b := &base[i]
		switch {
		case im.Name == "":
			if b.Name == "" && b.Command == im.Command {
				return b
			}
		case b.Name == im.Name && b.Version == im.Version:
			return b
		case b.Name == im.Name && sameName == nil:
			sameName = b
		}
	}
	return sameName
}
