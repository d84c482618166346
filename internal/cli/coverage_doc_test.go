package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// docs/conformance.md names every rule of the validator that the project's
// corpus leaves without a negative fixture, and why; this keeps that list
// and the coverage report the same.
func TestUncoveredRulesAreDocumented(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"coverage", "--format", "json"},
		Env{Stdout: &out, Stderr: &errb, WorkDir: "../.."})
	if code != ExitOK {
		t.Fatalf("coverage exit %d\n%s", code, errb.String())
	}
	var report struct {
		Rules []struct {
			ID          string `json:"id"`
			Negative    int    `json:"negative"`
			FindingOnly bool   `json:"finding_only"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	var uncovered []string
	for _, r := range report.Rules {
		if r.Negative == 0 && !r.FindingOnly {
			uncovered = append(uncovered, r.ID)
		}
	}
	doc, err := os.ReadFile("../../docs/conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Rules without a negative fixture\n")
	if !ok {
		t.Fatal("docs/conformance.md has no section on rules without a negative fixture")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^- `([^`]+)`:").FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	sort.Strings(uncovered)
	sort.Strings(documented)
	if strings.Join(uncovered, "\n") != strings.Join(documented, "\n") {
		t.Errorf("rules without a negative fixture:\n  coverage: %q\n  docs:     %q", uncovered, documented)
	}
}
