package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// archive is a txtar archive (the format of golang.org/x/tools/txtar): a
// comment, then files, each introduced by a line "-- name --".
type archive struct {
	comment []byte
	files   []archiveFile
}

type archiveFile struct {
	name string
	data []byte
}

// parseArchive reads a txtar archive. A line is a file marker only when it
// starts with "-- ", ends with " --" and names something in between.
func parseArchive(data []byte) archive {
	var a archive
	cur := &a.comment
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := marker(line); ok {
			a.files = append(a.files, archiveFile{name: name})
			cur = &a.files[len(a.files)-1].data
			continue
		}
		*cur = append(*cur, line...)
	}
	return a
}

func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

func (a archive) format() []byte {
	var b bytes.Buffer
	b.Write(a.comment)
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
		if len(f.data) > 0 && f.data[len(f.data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// resultFile is the archive member that holds the expected result; every
// other member is a corpus file.
const resultFile = "result.json"

// goldenRun is the part of a run a golden file shows: everything a
// reporter uses, less what changes between runs (times) or repeats the
// fixture (digests, prose of mismatches).
type goldenRun struct {
	Results  []goldenResult
	Findings []model.Finding
	Summary  model.Summary
}

type goldenResult struct {
	Path     string
	Name     string
	Class    string
	Passed   bool
	Expected model.Expected
	Actual   model.Actual
	Span     *model.Span `json:",omitempty"`
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
			a := parseArchive(data)
			root := t.TempDir()
			var want []byte
			have := false
			for _, f := range a.files {
				if f.name == resultFile {
					want, have = f.data, true
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(f.name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run := runCorpus(t, Config{Corpus: root, Checker: drp2.New()})
			got := goldenJSON(t, run)
			if golden.Updating() {
				kept := a.files[:0]
				for _, f := range a.files {
					if f.name != resultFile {
						kept = append(kept, f)
					}
				}
				a.files = append(kept, archiveFile{name: resultFile, data: got})
				if err := os.WriteFile(path, a.format(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !have {
				t.Fatalf("%s has no %s member (run go test -update to add it)", path, resultFile)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: result differs (run go test -update to accept):\n%s", path, lineDiff(want, got))
			}
		})
	}
}

func goldenJSON(t *testing.T, run *model.Run) []byte {
	t.Helper()
	g := goldenRun{Findings: run.Findings, Summary: run.Summary}
	for _, r := range run.Results {
		g.Results = append(g.Results, goldenResult{Path: r.Path, Name: r.Name, Class: r.Class.String(), Passed: r.Passed,
			Expected: r.Expected, Actual: r.Actual, Span: r.Span})
	}
	out, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// lineDiff shows the first line where want and got differ.
func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + itoa(i+1) + ":\nwant: " + wl + "\ngot:  " + gl
		}
	}
	return ""
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestParseArchive(t *testing.T) {
	a := parseArchive([]byte("about\n-- a.json --\n{}\n-- not a marker\n--  --\n-- b/c.json --\nx"))
	if string(a.comment) != "about\n" || len(a.files) != 2 {
		t.Fatalf("parsed %+v", a)
	}
	if a.files[0].name != "a.json" || string(a.files[0].data) != "{}\n-- not a marker\n--  --\n" {
		t.Errorf("first file %q: %q", a.files[0].name, a.files[0].data)
	}
	if a.files[1].name != "b/c.json" || string(a.files[1].data) != "x" {
		t.Errorf("second file %q: %q", a.files[1].name, a.files[1].data)
	}
	if got := string(parseArchive(a.format()).format()); got != string(a.format()) {
		t.Errorf("format does not round-trip: %q", got)
	}
}
