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

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// The JSON report's schema, docs/report.schema.json, closed to members it
// does not describe (testkit.StrictSchema), compiled once for each
// document: the whole report, and the member that diff, coverage and
// manifest check write alone with --format json. Every JSON document a
// test of this package writes (--json-out, and --format json) is
// validated by run, so that the schema published for collectors says all
// the tool writes.
var reportSchemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "report.schema.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]*jsonschema.Schema{}
	for command, pointer := range map[string]string{"run": "", "merge": "", "diff": "#/$defs/comparison", "coverage": "#/$defs/coverage", "manifest": "#/$defs/manifest"} {
		if out[command], err = testkit.StrictSchema(data, pointer); err != nil {
			return nil, err
		}
	}
	return out, nil
})

// reportSchema is the whole report's.
func reportSchema() (*jsonschema.Schema, error) {
	s, err := reportSchemas()
	return s["run"], err
}

// checkReportSchema validates the JSON documents the command line args
// wrote.
func checkReportSchema(t *testing.T, dir string, args []string, stdout string) {
	t.Helper()
	if len(args) == 0 {
		return
	}
	for i, a := range args {
		switch {
		case a == "--json-out" && i+1 < len(args) && (args[0] == "run" || args[0] == "merge"):
			p := args[i+1]
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if data, err := os.ReadFile(p); err == nil {
				validateDocument(t, args[0], args[i+1], data)
			}
		case a == "--format" && i+1 < len(args) && args[i+1] == "json" && strings.HasPrefix(stdout, "{"):
			validateDocument(t, args[0], "standard output", []byte(stdout))
		}
	}
}

// validateDocument validates what command wrote as name.
func validateDocument(t *testing.T, command, name string, data []byte) {
	t.Helper()
	schemas, err := reportSchemas()
	if err != nil {
		t.Fatalf("docs/report.schema.json: %v", err)
	}
	s := schemas[command]
	if s == nil {
		return
	}
	if err := testkit.ValidateJSON(s, data); err != nil {
		t.Errorf("%s's %s does not validate against docs/report.schema.json, closed to members it does not describe:\n%v", command, name, err)
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
		{`"report_version": "1.3"`, `"report_version": "2.0"`},
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
	next := bytes.Replace(good, []byte(`"report_version": "1.3"`), []byte(`"report_version": "2.0"`), 1)
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
