package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// resultFile is the archive member that holds the expected result; every
// other member is a corpus file.
const resultFile = "result.json"

// goldenRun is the part of a run a golden file shows: everything a
// reporter uses, less what changes between runs (times) or repeats the
// fixture (digests, prose of mismatches).
type goldenRun struct {
	Results  []goldenResult
	Findings []goldenFinding
	Summary  model.Summary
}

// goldenFinding and goldenSpan give a finding and a span the JSON names
// the golden files spell them with; the model itself has none.
type goldenFinding struct {
	Kind    model.FindingKind `json:"kind"`
	Path    string            `json:"path"`
	Message string            `json:"message"`
}

type goldenSpan struct {
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"end_line"`
	EndColumn int `json:"end_column"`
}

// goldenExpected is model.Expected with its rare field left out when
// empty, so that only the archives about huge indexes show it.
type goldenExpected struct {
	Outcome         string
	Phase           string
	Code            string
	CommandIndex    *int
	BigCommandIndex string `json:",omitempty"`
}

type goldenResult struct {
	Path     string
	Name     string
	Class    string
	Passed   bool
	Expected goldenExpected
	Actual   model.Actual
	Span     *goldenSpan `json:",omitempty"`
}

// TestGolden runs each testdata/*.txtar archive as a corpus with the DRP2
// checker and compares the result with its result.json member; with
// -update it rewrites that member. The archive's comment says what the
// case shows.
func TestGolden(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no golden archives (%v)", err)
	}
	for _, path := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := testkit.ParseArchive(data)
			root := t.TempDir()
			var want []byte
			have := false
			for _, f := range a.Files {
				if f.Name == resultFile {
					want, have = f.Data, true
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run := runCorpus(t, Config{Corpus: root, Checker: drp2.New()})
			got := goldenJSON(t, run)
			if golden.Updating() {
				kept := a.Files[:0]
				for _, f := range a.Files {
					if f.Name != resultFile {
						kept = append(kept, f)
					}
				}
				a.Files = append(kept, testkit.File{Name: resultFile, Data: got})
				if err := os.WriteFile(path, a.Format(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !have {
				t.Fatalf("%s has no %s member (run go test -update to add it)", path, resultFile)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: result differs (run go test -update to accept):\n%s", path, golden.LineDiff(want, got))
			}
		})
	}
}

func goldenJSON(t *testing.T, run *model.Run) []byte {
	t.Helper()
	g := goldenRun{Summary: run.Summary}
	for _, f := range run.Findings {
		g.Findings = append(g.Findings, goldenFinding(f))
	}
	for _, r := range run.Results {
		g.Results = append(g.Results, goldenResult{Path: r.Path, Name: r.Name, Class: r.Class.String(), Passed: r.Passed,
			Expected: goldenExpected(r.Expected), Actual: r.Actual, Span: (*goldenSpan)(r.Span)})
	}
	out, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}
