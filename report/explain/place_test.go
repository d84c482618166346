package explain

import (
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// FilePath and StartLine place a result for annotations and JUnit alike.
func TestPlace(t *testing.T) {
	for in, want := range map[string]string{`./fixtures\negative\x.json`: "fixtures/negative/x.json", "a/b.json": "a/b.json", "": ""} {
		if got := FilePath(in); got != want {
			t.Errorf("FilePath(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		span *model.Span
		want int
	}{{nil, 1}, {&model.Span{}, 1}, {&model.Span{Line: -3}, 1}, {&model.Span{Line: 61, Column: 5}, 61}} {
		if got := StartLine(c.span); got != c.want {
			t.Errorf("StartLine(%+v) = %d, want %d", c.span, got, c.want)
		}
	}
}
