package drp2

import (
	"flag"
	"os"
	"strings"
	"testing"

	// The -update flag.
	_ "github.com/drp2/drp2-fixtures/internal/golden"
)

const (
	conformanceDoc = "../../docs/conformance.md"
	rulesBegin     = "<!-- rules:begin (generated from drp2.Rules(); go test ./runner/drp2 -update rewrites it) -->\n"
	rulesEnd       = "<!-- rules:end -->\n"
)

// rulesTable renders Rules() as the Markdown table of docs/conformance.md.
func rulesTable() string {
	var b strings.Builder
	b.WriteString("| Rule | Code | What the validator checks |\n|---|---|---|\n")
	for _, r := range Rules() {
		code := "finding only"
		if r.Code != "" {
			code = "`" + r.Code + "`"
		}
		b.WriteString("| " + r.ID + " | " + code + " | " + strings.ReplaceAll(r.Summary, "|", `\|`) + " |\n")
	}
	return b.String()
}

// docs/conformance.md lists exactly the rules of Rules(), with their codes
// and summaries: the page a DRP2 maintainer reads matches the code.
func TestConformanceDocListsRules(t *testing.T) {
	raw, err := os.ReadFile(conformanceDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin := strings.Index(doc, rulesBegin)
	end := strings.Index(doc, rulesEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no generated rules section between %q and %q", conformanceDoc, rulesBegin, rulesEnd)
	}
	want := rulesTable()
	if got := doc[begin+len(rulesBegin) : end]; got != want {
		if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
			doc = doc[:begin+len(rulesBegin)] + want + doc[end:]
			if err := os.WriteFile(conformanceDoc, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("the rules section of %s differs from Rules(); run go test ./runner/drp2 -update and review the change", conformanceDoc)
	}
	if !strings.Contains(doc, "\n## Deliberate differences from the upstream runner\n") {
		t.Fatalf("%s has no section on the differences from the upstream runner", conformanceDoc)
	}
}
