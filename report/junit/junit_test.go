package junit

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/bound"
	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

var actionsProps = Options{Properties: []Property{
	{"github.repository", "drp2/drp2-fixtures"},
	{"github.sha", "0123456789abcdef0123456789abcdef01234567"},
	{"github.ref", "refs/pull/7/merge"},
	{"github.run_id", "123456"},
	{"github.run_attempt", "1"},
}}

// render is the JUnit XML of run as the gate bounds it for every sink.
func render(t *testing.T, run *model.Run, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, bound.Run(run), opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	golden.Check(t, "sample.xml", render(t, sample.Run(), actionsProps))
	golden.Check(t, "passing.xml", render(t, sample.Passing(), Options{}))
}

func TestDeterministic(t *testing.T) {
	a := render(t, sample.Run(), actionsProps)
	b := render(t, sample.Run(), actionsProps)
	if !bytes.Equal(a, b) {
		t.Fatal("two renders of the same run differ")
	}
}

// The parsed report must say what the model says: suites per class,
// failures for mismatches, errors for corpus errors, and the hostile text
// intact apart from characters XML cannot carry.
func TestStructure(t *testing.T) {
	out := render(t, sample.Run(), actionsProps)
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
			Props []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Time      string `xml:"time,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("report does not parse: %v", err)
	}
	if doc.Tests != 9 || doc.Failures != 5 || doc.Errors != 1 {
		t.Errorf("totals tests=%d failures=%d errors=%d, want 9, 5, 1", doc.Tests, doc.Failures, doc.Errors)
	}
	var names []string
	for _, s := range doc.Suites {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "corpus_error,positive,negative,schema_negative" {
		t.Errorf("suites = %s", got)
	}
	found := map[string]bool{}
	for i, s := range doc.Suites {
		// The run's evidence once, on the first suite.
		if i == 0 && (len(s.Props) == 0 || s.Props[0].Name != "drp2.tool_version" || s.Props[0].Value != "v1.2.3" || s.Props[len(s.Props)-1].Name != "github.run_attempt") {
			t.Errorf("suite %s properties = %+v", s.Name, s.Props)
		}
		if i > 0 && len(s.Props) > 0 {
			t.Errorf("suite %s repeats the properties: %+v", s.Name, s.Props)
		}
		for _, c := range s.Cases {
			switch {
			case c.Name == "draw_outside_pass":
				found[c.Name] = true
				if c.Classname != "negative" || c.Time != "0.003" || c.Failure == nil ||
					c.Failure.Message != "expected semantic_validation DRP2_ERR_USAGE at command 9, got success" {
					t.Errorf("draw_outside_pass = %+v", c)
				}
				for _, want := range []string{"fixtures/negative/draw_outside_pass.json:61:5", "reason: Draw commands", "fix: Open a render pass", "command_index   9"} {
					if !strings.Contains(c.Failure.Body, want) {
						t.Errorf("failure body lacks %q:\n%s", want, c.Failure.Body)
					}
				}
				if strings.Contains(c.Failure.Body, c.Failure.Message) {
					t.Errorf("the failure message is repeated in its body:\n%s", c.Failure.Body)
				}
			case c.Name == "truncated.json":
				found[c.Name] = true
				if c.Error == nil || c.Error.Type != "corpus_error" || !strings.HasPrefix(c.Error.Message, "corpus error: invalid JSON") {
					t.Errorf("corpus error case = %+v", c)
				}
			case strings.HasPrefix(c.Name, "</details>"):
				found["hostile"] = true
				if strings.ContainsAny(c.Name, "\x00\x1b") || !strings.Contains(c.Name, "<script>alert(1)</script>") {
					t.Errorf("hostile name = %q: want markup kept as text, control characters gone", c.Name)
				}
			}
		}
	}
	if len(found) != 3 {
		t.Errorf("found %v, want the mismatch, the corpus error and the hostile case", found)
	}
}

// TestSchemas validates the strict report with xmllint against both JUnit
// schemas (the default one is the same with file and line on testcases,
// TestStrict). .ci/run installs xmllint; elsewhere the test is skipped
// loudly.
func TestSchemas(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("SKIPPED: xmllint not found; install libxml2-utils to validate JUnit output against the XSDs")
	}
	schemaDir := filepath.Join("..", "..", "..", "shared", "junit")
	if _, err := os.Stat(schemaDir); err != nil {
		schemaDir = "/work/shared/junit"
	}
	runs := map[string]*model.Run{
		"sample":  sample.Run(),
		"passing": sample.Passing(),
		"large":   sample.Large(300),
		"huge":    sample.Huge(),
		"empty":   {},
		// The runtime harness's suites, one per implementation.
		"implementations": sample.WithImplementations(),
		"compared":        sample.Compared(),
	}
	dir := t.TempDir()
	for _, name := range []string{"compared", "empty", "huge", "implementations", "large", "passing", "sample"} {
		file := filepath.Join(dir, name+".xml")
		strict := Options{Properties: actionsProps.Properties, Strict: true}
		if err := os.WriteFile(file, render(t, runs[name], strict), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, xsd := range []string{"junit-10.xsd", "junit-4.xsd"} {
			schema := filepath.Join(schemaDir, xsd)
			if _, err := os.Stat(schema); err != nil {
				t.Fatalf("schema %s: %v", schema, err)
			}
			out, err := exec.Command(xmllint, "--noout", "--schema", schema, file).CombinedOutput()
			if err != nil {
				t.Errorf("%s against %s: %v\n%s", name, xsd, err, out)
			}
		}
	}
}

// TestRegressionsMarked: a dashboard tells a new failure from an old one
// by the failure's type and message; a passing fixture with a finding has
// no error output, so a viewer shows it as passed.
func TestRegressionsMarked(t *testing.T) {
	out := string(render(t, sample.Compared(), Options{}))
	for _, want := range []string{
		`<failure message="regressed: expected semantic_validation DRP2_ERR_USAGE at command 9, got success" type="regression">`,
		`<failure message="new failure: expected semantic_validation DRP2_ERR_&lt;b&gt;|x at command 2, got semantic_validation DRP2_ERR_USAGE at command 2" type="regression">`,
		// Still failing, and listed as a known failure: neither a failure
		// nor a pass, but skipped with its reason and what happened.
		"<testcase name=\"destroy_twice\" classname=\"negative\" file=\"fixtures/negative/destroy_twice.json\" line=\"40\" time=\"0.001\">\n\t\t\t<skipped><![CDATA[Known failure (renderer#12: ",
		"): expected semantic_validation DRP2_ERR_INVALID_ID at command 4, got semantic_validation DRP2_ERR_INVALID_STATE at command 4\n\nfixture: destroy_twice\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %s", want)
		}
	}
	if !strings.Contains(out, `<error message="regressed: corpus error: invalid JSON: unexpected end of input at line 7, column 1" type="corpus_error">`) {
		t.Error("the file that broke is not marked as a new failure")
	}
	run := sample.Run()
	run.Findings = append(run.Findings, model.Finding{Kind: model.FindingNameStem, Path: "fixtures/positive/minimal_triangle.json", Message: "a finding"})
	passing := string(render(t, run, Options{}))
	i := strings.Index(passing, `<testcase name="minimal_triangle"`)
	if i < 0 {
		t.Fatal("no minimal_triangle case")
	}
	tc := passing[i : i+strings.Index(passing[i:], "</testcase>")]
	if strings.Contains(tc, "system-err") || !strings.Contains(tc, "<system-out><![CDATA[warning: fixtures/positive/minimal_triangle.json") {
		t.Errorf("a passing fixture's finding is not plain output:\n%s", tc)
	}
}

func TestNilRun(t *testing.T) {
	if err := Write(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Fatal("Write(nil run) returned no error")
	}
}

func TestGitHubProperties(t *testing.T) {
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "drp2/drp2-fixtures", "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
		"GITHUB_REF": "refs/pull/7/merge", "GITHUB_RUN_ID": "123456", "GITHUB_RUN_ATTEMPT": "1",
	}
	got := GitHubProperties(func(k string) string { return env[k] })
	if len(got) != len(actionsProps.Properties) {
		t.Fatalf("properties = %v, want %v", got, actionsProps.Properties)
	}
	for i, p := range got {
		if p != actionsProps.Properties[i] {
			t.Errorf("property %d = %v, want %v", i, p, actionsProps.Properties[i])
		}
	}
	env["GITHUB_ACTIONS"] = ""
	if got := GitHubProperties(func(k string) string { return env[k] }); got != nil {
		t.Errorf("outside Actions: %v, want none", got)
	}
}

// TestInvisibleCharactersAreNamed: test-report actions turn a JUnit
// failure's name, message and body into annotations and summaries, so
// the invisible characters in them are named, as in every other report.
func TestInvisibleCharactersAreNamed(t *testing.T) {
	run := sample.Run()
	var r *model.Result
	for i := range run.Results {
		if !run.Results[i].Passed && !run.Results[i].IsCorpusError() {
			r = &run.Results[i]
			break
		}
	}
	r.Name = "hand\u2060shake"
	r.Reason = "rtl \u202Eevil\u202C zw\u200Bsp"
	r.Actual.Message = "bom\uFEFF"
	out := string(render(t, run, Options{}))
	for _, c := range []rune{0x2060, 0x202E, 0x202C, 0x200B, 0xFEFF} {
		if strings.ContainsRune(out, c) {
			t.Errorf("U+%04X passes into the JUnit report", c)
		}
	}
	if !strings.Contains(out, "hand[U+2060]shake") || !strings.Contains(out, "rtl [U+202E]evil[U+202C]") {
		t.Errorf("the characters are not named:\n%s", out)
	}
}
