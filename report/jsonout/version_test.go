package jsonout

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// TestReportVersion: a report of version 1 of any minor version is read,
// one without a version predates it and is read as 1.0, and one of
// another major version, or a version of another shape, is refused with
// the version it has.
func TestReportVersion(t *testing.T) {
	body := `"summary": {"discovered": 0}, "results": [], "findings": []`
	for _, c := range []struct {
		version string
		want    string // "" reads
	}{
		{"", ""},
		{`"report_version": "1.0",`, ""},
		{`"report_version": "1.1",`, ""},
		{`"report_version": "1.7", "a_later_member": {"x": 1},`, ""},
		{`"report_version": "2.0",`, `report_version 2.0: this drp2-fixtures (report version 1.3) reads version 1 reports only`},
		{`"report_version": "0.9",`, `report_version 0.9`},
		{`"report_version": "one",`, `"one" is not MAJOR.MINOR`},
		{`"report_version": "1",`, `"1" is not MAJOR.MINOR`},
		{`"report_version": "1.x",`, `"1.x" is not MAJOR.MINOR`},
	} {
		// Read, not ReadReport: the body is cut to what the version
		// needs, and the schema would refuse it for that.
		_, err := Read(strings.NewReader("{" + c.version + body + "}"))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.version, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.version, err, c.want)
		}
	}
}

// TestProvenanceReadBack: the start, commit, repository and corpus digest
// a report records come back as they were, the start in UTC.
func TestProvenanceReadBack(t *testing.T) {
	zone := time.FixedZone("east", 3600)
	run := &model.Run{Results: []model.Result{}, Started: time.Date(2026, 3, 4, 5, 6, 7, 0, zone),
		Commit: "0123abcd", Repository: "owner/name", CorpusDigest: strings.Repeat("e", 64)}
	var b bytes.Buffer
	if err := Write(&b, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"started": "2026-03-04T04:06:07Z"`) || !strings.HasPrefix(b.String(), "{\n  \"report_version\": \""+ReportVersion+"\",") {
		t.Errorf("the report does not lead with its version or write its start in UTC:\n%s", b.String())
	}
	back, err := ReadReport(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !back.Started.Equal(run.Started) || back.Commit != run.Commit || back.Repository != run.Repository || back.CorpusDigest != run.CorpusDigest {
		t.Errorf("read back %v %q %q %q", back.Started, back.Commit, back.Repository, back.CorpusDigest)
	}
	if _, err := ReadReport([]byte(`{"summary": {"started": "yesterday"}, "results": []}`)); err == nil || !strings.Contains(err.Error(), "summary.started") {
		t.Errorf("a start that is no time: %v", err)
	}
}
