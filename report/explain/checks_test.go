package explain

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestCoverageWords(t *testing.T) {
	one := &model.Coverage{Rules: []model.RuleCoverage{{ID: "a", Unlisted: true}, {ID: "b", FindingOnly: true}},
		Uncovered: 1, PositiveFixtures: 2, NegativeFixtures: 3, NoRule: []string{"negative/x.json"}, NotCounted: 1}
	two := &model.Coverage{Rules: []model.RuleCoverage{{ID: "a", Unlisted: true}, {ID: "b", Unlisted: true, Negative: 1}},
		NoRule: []string{"negative/x.json", "negative/y.json"}, NotCounted: 2}
	for _, c := range []struct {
		c        *model.Coverage
		headline string
		notes    string
	}{
		{one, "1 of 1 rules that fail a stream have no negative fixture (from 2 passing positive and 3 passing negative fixtures)",
			"1 fixture that did not pass was not counted.|1 negative fixture fails by a verdict that names no rule: negative/x.json.|1 rule marked * was named by verdicts or traces but missing from the checker's rule list."},
		{two, "0 of 2 rules that fail a stream have no negative fixture (from 0 passing positive and 0 passing negative fixtures)",
			"2 fixtures that did not pass were not counted.|2 negative fixtures fail by a verdict that names no rule: negative/x.json, negative/y.json.|2 rules marked * were named by verdicts or traces but missing from the checker's rule list."},
		{&model.Coverage{}, "0 of 0 rules that fail a stream have no negative fixture (from 0 passing positive and 0 passing negative fixtures)", ""},
	} {
		if got := CoverageHeadline(c.c); got != c.headline {
			t.Errorf("CoverageHeadline = %q\nwant %q", got, c.headline)
		}
		if got := strings.Join(CoverageNotes(c.c), "|"); got != c.notes {
			t.Errorf("CoverageNotes = %q\nwant %q", got, c.notes)
		}
	}
}

func TestAdapter(t *testing.T) {
	for _, c := range []struct {
		a    *model.GPUAdapter
		want string
	}{
		{nil, ""},
		{&model.GPUAdapter{}, ""},
		{&model.GPUAdapter{Vendor: "google", Architecture: "swiftshader", Driver: "SwiftShader driver 5.0.0", Platform: "node 20"}, "google swiftshader, SwiftShader driver 5.0.0 (node 20)"},
		{&model.GPUAdapter{Device: "llvmpipe", Platform: "dawn"}, "llvmpipe (dawn)"},
		{&model.GPUAdapter{Platform: "dawn"}, "dawn"},
		{&model.GPUAdapter{Architecture: "rdna3"}, "rdna3"},
		{&model.GPUAdapter{Vendor: "Google", Device: "SwiftShader"}, "Google SwiftShader"},
		{&model.GPUAdapter{Vendor: "google", Architecture: "swiftshader", Device: "SwiftShader", Driver: "5.0"}, "google swiftshader, 5.0"},
	} {
		if got := Adapter(c.a); got != c.want {
			t.Errorf("Adapter(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}

func TestWordsOfTheComparison(t *testing.T) {
	for v, want := range map[model.Transition]string{model.Regressed: "Regressed", model.AddedFailing: "Added, failing",
		model.StillPassing: "Passing, content changed", "other": "other"} {
		if got := TransitionTitle(v); got != want {
			t.Errorf("TransitionTitle(%s) = %q, want %q", v, got, want)
		}
	}
	for c, want := range map[model.ContentChange]string{model.ContentSame: "", model.Broken: "broken",
		model.ExpectationChanged: "expectation changed", model.MetadataChanged: "metadata changed"} {
		if got := ContentWords(c); got != want {
			t.Errorf("ContentWords(%q) = %q, want %q", c, got, want)
		}
	}
	if got := ClassTitle(model.ClassUnknown); got != "Corpus error" {
		t.Errorf("ClassTitle(unknown) = %q", got)
	}
}
