package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The JSON report's schema, docs/report.schema.json, compiled once. Every
// JSON report a test of this package writes (--json-out, and run's and
// merge's --format json) is validated against it by run, so that the
// schema published for collectors says what the tool writes.
var reportSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "report.schema.json"))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("report.schema.json", bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return c.Compile("report.schema.json")
})

// checkReportSchema validates the JSON reports the command line args wrote.
func checkReportSchema(t *testing.T, dir string, args []string, stdout string) {
	t.Helper()
	if len(args) == 0 || (args[0] != "run" && args[0] != "merge") {
		return
	}
	for i, a := range args {
		switch {
		case a == "--json-out" && i+1 < len(args):
			p := args[i+1]
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if data, err := os.ReadFile(p); err == nil {
				validateReport(t, args[i+1], data)
			}
		case a == "--format" && i+1 < len(args) && args[i+1] == "json" && strings.HasPrefix(stdout, "{"):
			validateReport(t, "standard output", []byte(stdout))
		}
	}
}

func validateReport(t *testing.T, name string, data []byte) {
	t.Helper()
	s, err := reportSchema()
	if err != nil {
		t.Fatalf("docs/report.schema.json: %v", err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Errorf("report %s: %v", name, err)
		return
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("report %s does not validate against docs/report.schema.json: %#v", name, err)
	}
	reportsValidated.Add(1)
}

// TestReportSchemaCatchesADifference: the schema is strict enough to fail
// a report that lost a required member or changed a type, and the tests
// of this package did validate reports.
func TestReportSchemaCatchesADifference(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := run(t, dir, "run", "--json-out", "r.json", "--commit", "0123abcd", "--repository", "o/r"); code != ExitOK {
		t.Fatalf("run: %d %s %s", code, out, errs)
	}
	if reportsValidated.Load() == 0 {
		t.Fatal("run validated no report")
	}
	good, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	if !bytes.Contains(good, []byte(`"commit": "0123abcd"`)) || !bytes.Contains(good, []byte(`"repository": "o/r"`)) {
		t.Errorf("the report does not record the commit and repository:\n%.600s", good)
	}
	s, err := reportSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, edit := range []struct{ from, to string }{
		{`"passed": true`, `"passed": "yes"`},
		{`"report_version": "1.2"`, `"report_version": "2.0"`},
		{`"fixture_path"`, `"fixture_paths"`},
		{`"started": "2026-01-01T00:00:00Z"`, `"started": "1 Jan 2026"`},
	} {
		bad := bytes.Replace(good, []byte(edit.from), []byte(edit.to), 1)
		if bytes.Equal(bad, good) {
			t.Fatalf("the report has no %s", edit.from)
		}
		var v any
		if err := json.Unmarshal(bad, &v); err != nil {
			t.Fatal(err)
		}
		if s.Validate(v) == nil {
			t.Errorf("a report with %s instead of %s validates", edit.to, edit.from)
		}
	}
	for _, bad := range [][]string{{"--commit", "main"}, {"--repository", "no-slash"}, {"--repository", "a/b\nc"}} {
		if code, _, errs := run(t, dir, append([]string{"run"}, bad...)...); code != ExitUsage || !strings.Contains(errs, bad[0]) {
			t.Errorf("%v: exit %d %q", bad, code, errs)
		}
	}
}

// reportsValidated counts the reports validated, for TestMain's check
// that the schema was held to something.
var reportsValidated atomic.Int64

// TestUnknownMajorVersionRefused: merge and diff refuse a report of a
// major version this build does not read, naming the file.
func TestUnknownMajorVersionRefused(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "run", "--json-out", "r.json"); code != ExitOK {
		t.Fatalf("run: %d %s", code, errs)
	}
	good, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	next := bytes.Replace(good, []byte(`"report_version": "1.2"`), []byte(`"report_version": "2.0"`), 1)
	if err := os.WriteFile(filepath.Join(dir, "next.json"), next, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"merge", "r.json", "next.json"}, {"diff", "r.json", "next.json"}, {"diff", "next.json", "r.json"}} {
		code, _, errs := run(t, dir, args...)
		if code != ExitUsage || !strings.Contains(errs, "next.json") || !strings.Contains(errs, "report_version 2.0") {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
}
