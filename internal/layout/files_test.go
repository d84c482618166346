package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readers are the calls that open or read a file by path. Outside
// internal/workspace none may be made on a path a pull request controls,
// so none is made at all: internal/workspace holds every input path to its
// rules (no links, regular files, bounded, inside the workspace when
// contained). jsonschema.LoadURL reads any URL a schema names.
var readers = map[string]map[string]bool{
	"os":         {"Open": true, "OpenFile": true, "ReadFile": true, "WriteFile": true, "Create": true, "OpenRoot": true, "DirFS": true, "OpenInRoot": true},
	"ioutil":     {"ReadFile": true, "WriteFile": true},
	"jsonschema": {"LoadURL": true},
}

// tools read and write only paths their own user names: the generators of
// scale-test corpora, the release helper, and the test kit and the
// golden-file helper that tests use.
var tools = []string{"internal/workspace", "cmd/drp2-gen", "cmd/drp2-release", "internal/corpusgen", "internal/golden", "internal/testkit"}

func TestInputFilesGoThroughTheWorkspace(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			for _, tool := range tools {
				if rel == tool {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		checked++
		for _, bad := range fileReaders(t, p) {
			t.Errorf("%s: %s: open input files through internal/workspace", rel, bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d Go files checked", checked)
	}
}

// fileReaders lists the calls of readers in the Go file at p, with their
// lines, by the name each package is imported under.
func fileReaders(t *testing.T, p string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{} // local name -> package key of readers
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		key := filepath.Base(path)
		switch path {
		case "os", "io/ioutil", "github.com/santhosh-tekuri/jsonschema/v5":
		default:
			continue
		}
		if key == "v5" {
			key = "jsonschema"
		}
		local := key
		if imp.Name != nil {
			local = imp.Name.Name
		}
		names[local] = key
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		if key, ok := names[id.Name]; ok && readers[key][sel.Sel.Name] {
			found = append(found, fset.Position(sel.Pos()).String()+" "+id.Name+"."+sel.Sel.Name)
		}
		return true
	})
	return found
}

// The check finds what it is for: a file that reads around the workspace.
func TestFileReadersFindsReads(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.go")
	src := "package x\n\nimport (\n\tstdos \"os\"\n\t\"github.com/santhosh-tekuri/jsonschema/v5\"\n)\n\nvar _, _ = stdos.ReadFile(\"f\")\nvar _ = jsonschema.LoadURL\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := fileReaders(t, p); len(got) != 2 {
		t.Errorf("found %q", got)
	}
}
