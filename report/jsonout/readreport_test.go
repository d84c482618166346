package jsonout

import (
	"strings"
	"testing"
)

// TestReadReportErrors: a report that is not one says so, with the line.
func TestReadReportErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n\"summary\": {},\n\"results\": [1}", "line 3"},
		{`{"summary": {}}`, `no "results"`},
		{`{"results": [{"fixture_path": "x.json"}]}`, "no corpus_path"},
		{`[]`, "not a drp2-fixtures JSON report"},
	} {
		_, err := ReadReport([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}
