package explain

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestComparisonHeadline(t *testing.T) {
	for _, c := range []struct {
		c    *model.Comparison
		want string
	}{
		{nil, ""},
		{&model.Comparison{Unavailable: "shallow"}, "no comparison with the base"},
		{&model.Comparison{Base: "abc1234"}, "no change against base abc1234"},
		{&model.Comparison{Base: "b", Changes: changes(model.Regressed, 2, model.Fixed, 3, model.AddedPassing, 4, model.AddedFailing, 1)}, "2 regressed, 3 fixed, 5 added against base b"},
		{&model.Comparison{Base: "b", FixtureSchemaChanged: true, Changes: changes(model.StillFailing, 7)}, "schemas changed against base b"},
	} {
		if got := ComparisonHeadline(c.c); got != c.want {
			t.Errorf("ComparisonHeadline() = %q, want %q", got, c.want)
		}
	}
}

// changes makes n changes of each verdict: changes(Regressed, 2, Fixed, 1).
func changes(counts ...any) []model.Change {
	var out []model.Change
	for i := 0; i < len(counts); i += 2 {
		for n := counts[i+1].(int); n > 0; n-- {
			out = append(out, model.Change{Verdict: counts[i].(model.Verdict)})
		}
	}
	return out
}
