package baseline

import (
	"testing"
	"testing/fstest"

	"github.com/drp2/drp2-fixtures/model"
)

// TestDiffStreams: the commands shared at the start and at the end are
// left out; what lies between is changed, added or removed.
func TestDiffStreams(t *testing.T) {
	for _, c := range []struct {
		base, head string
		want       *model.StreamDiff
	}{
		{"abc", "abc", nil},
		{"ab", "abc", &model.StreamDiff{First: 2, BaseCommands: 2, HeadCommands: 3, Added: 1}},
		{"abcd", "ad", &model.StreamDiff{First: 1, BaseCommands: 4, HeadCommands: 2, Removed: 2}},
		{"abcd", "aXYd", &model.StreamDiff{First: 1, BaseCommands: 4, HeadCommands: 4, Changed: 2}},
		{"aa", "aaa", &model.StreamDiff{First: 2, BaseCommands: 2, HeadCommands: 3, Added: 1}},
		{"abc", "Xbcd", &model.StreamDiff{First: 0, BaseCommands: 3, HeadCommands: 4, Changed: 3, Added: 1}},
	} {
		split := func(s string) []string {
			out := make([]string, len(s))
			for i := range s {
				out[i] = s[i : i+1]
			}
			return out
		}
		got := diffStreams(split(c.base), split(c.head))
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s → %s: %+v, want %+v", c.base, c.head, got, c.want)
		}
	}
}

// TestDescribeStreamsReadsBothFiles: white space alone changes no
// command; a file that does not decode, or a base without files, leaves
// the change without a description; only so many are read.
func TestDescribeStreamsReadsBothFiles(t *testing.T) {
	base := fstest.MapFS{
		"a.json": {Data: []byte(`{"commands": [{"cmd": "A"}, {"cmd": "B"}]}`)},
		"b.json": {Data: []byte(`{"commands": [{"cmd": "A"}]}`)},
	}
	head := fstest.MapFS{
		"a.json": {Data: []byte("{\"commands\": [{\"cmd\":\n \"A\"}, {\"cmd\": \"C\"}, {\"cmd\": \"D\"}]}")},
		"b.json": {Data: []byte(`{"commands": [`)},
	}
	c := &model.Comparison{Changes: []model.Change{{RelPath: "a.json", Content: model.StreamChanged}, {RelPath: "b.json", Content: model.StreamChanged}}}
	DescribeStreams(c, base, nil)
	if c.Changes[0].Stream != nil {
		t.Error("described without the head's files")
	}
	DescribeStreams(c, base, head)
	want := model.StreamDiff{First: 1, BaseCommands: 2, HeadCommands: 3, Changed: 1, Added: 1}
	if d := c.Changes[0].Stream; d == nil || *d != want {
		t.Errorf("a.json: %+v, want %+v", d, want)
	}
	if c.Changes[1].Stream != nil {
		t.Errorf("b.json does not decode, yet: %+v", c.Changes[1].Stream)
	}
	many := &model.Comparison{}
	for i := 0; i < maxStreamsDescribed+5; i++ {
		many.Changes = append(many.Changes, model.Change{RelPath: "a.json", Content: model.StreamChanged})
	}
	DescribeStreams(many, base, head)
	if many.Changes[maxStreamsDescribed-1].Stream == nil || many.Changes[maxStreamsDescribed].Stream != nil {
		t.Errorf("described past the bound of %d", maxStreamsDescribed)
	}
}
