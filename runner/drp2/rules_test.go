package drp2

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// knownCodes are the error codes of ERRORS.md.
var knownCodes = map[string]bool{
	codeUnknownCommand: true, codeUnsupportedVersion: true, codeUnsupportedCapability: true,
	codeInvalidID: true, codeDuplicateID: true, codeWrongObjectType: true, codeDestroyedObject: true,
	codeInvalidState: true, codeInvalidArgument: true, codeOutOfRange: true, codeLayout: true,
	codeUsage: true, codePassMismatch: true, codePipelineMismatch: true, codeFormatMismatch: true,
	codeFeatureRequired: true,
}

func TestRulesCatalogue(t *testing.T) {
	rules := Rules()
	if len(rules) != len(catalogue) || len(rules) < 50 {
		t.Fatalf("Rules() has %d rules, the catalogue %d", len(rules), len(catalogue))
	}
	if !sort.SliceIsSorted(rules, func(i, j int) bool { return rules[i].ID < rules[j].ID }) {
		t.Fatal("Rules() is not sorted by ID")
	}
	files := []string{"AUTHORITY.md", "CAPABILITIES.md", "COMMANDS.md", "CONFORMANCE.md", "ERRORS.md", "LIFETIMES.md", "VERSIONING.md"}
	for i, r := range rules {
		if i > 0 && rules[i-1].ID == r.ID {
			t.Errorf("rule %q is catalogued twice", r.ID)
		}
		if r.Summary == "" {
			t.Errorf("rule %q has no summary", r.ID)
		}
		if r.Code != "" && !knownCodes[r.Code] {
			t.Errorf("rule %q yields unknown code %q", r.ID, r.Code)
		}
		file, _, _ := strings.Cut(r.ID, " ")
		found := false
		for _, f := range files {
			found = found || f == file
		}
		if !found {
			t.Errorf("rule %q does not start with a prose file name", r.ID)
		}
	}
}

// Only newRule builds rules, so every rule a check can report is in the
// catalogue: the source holds exactly one rule literal.
func TestRulesAreBuiltOnlyByNewRule(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literals := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok {
				if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "rule" {
					literals++
				}
			}
			return true
		})
	}
	if literals != 1 {
		t.Fatalf("found %d rule literals; only newRule may build a rule", literals)
	}
}

// Every catalogued rule with a code fails at least one table case, and the
// finding rule reports at least one: the catalogue lists nothing the
// validator cannot say. A traced check sees every rule the verdict applies,
// and gives Check's verdict.
func TestEveryRuleFires(t *testing.T) {
	fired := map[string]bool{}
	c := New()
	for _, tc := range seedCases() {
		var seen []string
		s := tc.stream()
		f, _ := c.Check(context.Background(), s, func(r string) { seen = append(seen, r) })
		plain := verdictOf(c, s)
		if (f == nil) != (plain == nil) || (f != nil && *f != *plain) {
			t.Fatalf("%s: the traced check gives %+v, the plain one %+v", tc.name, f, plain)
		}
		if f == nil {
			continue
		}
		fired[f.Rule] = true
		if len(seen) == 0 || seen[len(seen)-1] != f.Rule {
			t.Fatalf("%s: failure names %q but the last rule traced is %v", tc.name, f.Rule, seen[max(0, len(seen)-1):])
		}
	}
	fired[ruleReplyData.id] = firesFinding(t)
	for _, r := range Rules() {
		if !fired[r.ID] {
			t.Errorf("no table case fails rule %q (%s)", r.ID, r.Code)
		}
	}
}

func firesFinding(t *testing.T) bool {
	s := ok("bad reply data", buffer(1, 16, `["MAP_READ"]`), encoder(2), finish(2, 3),
		submitReadback(3, 9, `[{"buffer_id":1,"offset":0,"size":16}]`),
		replyTo(9, `[{"buffer_id":1,"offset":0,"size":16,"data":"AA=="}]`)).stream()
	_, found := New().Check(context.Background(), s, nil)
	return len(found) == 1
}
