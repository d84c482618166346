package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestModelIsData: the model is the data every producer fills and every
// renderer reads, and nothing more. Words for people live in report/explain,
// and a format's field names with the format's owner (report/jsonout for
// the JSON report, internal/manifest for the manifest file), so the model
// imports no fmt and declares no struct tags.
func TestModelIsData(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "model", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		checked++
		for _, bad := range notData(t, p) {
			t.Errorf("%s: the model is data: its words belong in report/explain, its wire names with the format's owner", bad)
		}
	}
	if checked == 0 {
		t.Fatal("no model files checked")
	}
}

// notData lists, with their positions, what in the Go file at p is more
// than data: an import of fmt, a struct tag.
func notData(t *testing.T, p string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "fmt" {
			found = append(found, fset.Position(imp.Pos()).String()+" imports fmt")
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if field, ok := n.(*ast.Field); ok && field.Tag != nil {
			found = append(found, fset.Position(field.Tag.Pos()).String()+" struct tag "+field.Tag.Value)
		}
		return true
	})
	return found
}

// The check finds what it is for: fmt, and tags at any depth.
func TestNotDataFindsFmtAndTags(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.go")
	src := "package x\n\nimport \"fmt\"\n\ntype T struct {\n\tA int `json:\"a\"`\n\tB struct {\n\t\tC int `x:\"c\"`\n\t}\n}\n\nvar _ = fmt.Sprint\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := notData(t, p); len(got) != 3 {
		t.Errorf("found %q", got)
	}
}
