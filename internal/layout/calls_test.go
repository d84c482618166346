package layout

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// callBudgets bound how many of the module's functions one result passes
// through from a sink's entry point: following a result into a sink should
// read as a short path, not a tour of the code base. The count is of
// distinct functions and methods declared outside tests in this module
// that take a result (a parameter or receiver whose type holds a
// model.Result: a run, an implementation, a group), reached from the
// entry by static calls through such functions alone (a function, a
// method of a concrete type; a function literal's calls count as its
// encloser's). A call through an interface or a function value is not
// followed. TestCallBudgets -v lists them, and all the entry reaches.
// Each budget is the count of today: a sink that grows past it raises it
// here, in the commit that says why.
var callBudgets = []struct {
	entry string // package path in the module, then the function
	max   int
}{
	// The comment and the check run find a broken fixture's line among
	// the run's results (changeFixture, brokenSpan); +2 (+3 for the
	// check run, which named no implementation by its Label before): the
	// slowest fixtures, explain.Slowest and the table, which the job
	// summary renders with the comment's and the check run's code; +2
	// (the comment): the implementations' section names who the verdict
	// says is missing (explain.Missing), which its counts cannot show.
	{"report/markdown.CommentBody", 88},
	{"report/markdown.CheckOutput", 57},
	// 44: an implementation's failures grouped by cause, its entries to
	// edit, and every implementation's result on the last line; +2: the
	// verbose report's slowest fixtures; +1: the Level 3 images, counted
	// per implementation, ranked.
	{"report/text.Write", 47},
	// 29: the Level 3 images, a suite per implementation that has any.
	{"report/junit.Write", 29},
	{"report/annotation.BuildWith", 17},
	// 15 when the report was built whole (Build); +4: streamed, a result
	// and an implementation's record are written where they are met
	// (stream.results, .result, .implementation), and Write is the entry.
	{"report/jsonout.Write", 19},
}

func TestCallBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the module from source")
	}
	g := loadCallGraph(t)
	for _, b := range callBudgets {
		t.Logf("%s reaches %d functions in all", b.entry, len(g.reach(b.entry)))
		reached := g.follow(b.entry)
		if len(reached) == 0 {
			t.Errorf("%s: no such function", b.entry)
			continue
		}
		files := map[string]bool{}
		for _, f := range reached {
			files[g.file[f]] = true
		}
		t.Logf("%s passes a result through %d functions in %d files", b.entry, len(reached), len(files))
		for _, f := range reached {
			t.Logf("  %s (%s)", f, g.file[f])
		}
		if len(reached) > b.max {
			t.Errorf("%s passes a result through %d of the module's functions, more than %d", b.entry, len(reached), b.max)
		}
	}
}

// callGraph is the module's static call graph by function key
// ("pkg.Func", "pkg.Type.Method", pkg relative to the module).
type callGraph struct {
	calls map[string][]string
	file  map[string]string
	// carries holds the functions that take a result: a parameter or
	// receiver whose type holds a model.Result, directly or inside
	// (a *model.Run, an implementation, a group of results).
	carries map[string]bool
}

// follow is reach along the calls that pass a result on: from entry,
// into callees that take one (callGraph.carries).
func (g *callGraph) follow(entry string) []string {
	return g.reachBy(entry, func(f string) bool { return g.carries[f] })
}

func (g *callGraph) reach(entry string) []string {
	return g.reachBy(entry, func(string) bool { return true })
}

func (g *callGraph) reachBy(entry string, ok func(string) bool) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(f string) {
		if seen[f] {
			return
		}
		if _, known := g.file[f]; !known || !ok(f) {
			return
		}
		seen[f] = true
		for _, c := range g.calls[f] {
			walk(c)
		}
	}
	walk(entry)
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// loadCallGraph type-checks, from source, the module's packages that the
// budgets' entry points import (go list -deps says which, and which of
// their files build here) and records each declared function's static
// callees.
func loadCallGraph(t *testing.T) *callGraph {
	t.Helper()
	args := []string{"-deps", "-f", "{{if not .Standard}}{{.ImportPath}}:{{.Dir}} {{join .GoFiles \" \"}}{{end}}"}
	for _, b := range callBudgets {
		pkg, _, _ := strings.Cut(b.entry, ".")
		args = append(args, module+pkg)
	}
	pkgs := list(t, args...)
	fset := token.NewFileSet()
	g := &callGraph{calls: map[string][]string{}, file: map[string]string{}, carries: map[string]bool{}}
	imp := importer.ForCompiler(fset, "source", nil)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for pkg, fields := range pkgs {
		if strings.Contains(pkg, ".") || len(fields) < 2 {
			continue // outside the module, or no Go files
		}
		var asts []*ast.File
		for _, name := range fields[1:] {
			f, err := parser.ParseFile(fset, filepath.Join(fields[0], name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			asts = append(asts, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(module+pkg, fset, asts, info); err != nil {
			t.Fatalf("type-check %s: %v", pkg, err)
		}
		g.add(fset, root, asts, info)
	}
	return g
}

// add records the functions declared in files and their static callees.
func (g *callGraph) add(fset *token.FileSet, root string, files []*ast.File, info *types.Info) {
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			key := funcKey(obj)
			p := fset.Position(fd.Pos()).Filename
			rel, _ := filepath.Rel(root, p)
			g.file[key] = filepath.ToSlash(rel)
			if takesResult(obj.Type().(*types.Signature)) {
				g.carries[key] = true
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if callee := staticCallee(call, info); callee != nil {
					if k := funcKey(callee); k != "" {
						g.calls[key] = append(g.calls[key], k)
					}
				}
				return true
			})
		}
	}
}

// staticCallee is the function a call names statically: a package-level
// function or a method of a concrete type; nil for interface methods,
// function values and conversions.
func staticCallee(call *ast.CallExpr, info *types.Info) *types.Func {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[fun]; ok {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			if types.IsInterface(sel.Recv()) {
				return nil
			}
		}
		id = fun.Sel
	case *ast.IndexExpr: // a generic function's instance
		if x, ok := fun.X.(*ast.Ident); ok {
			id = x
		} else if x, ok := fun.X.(*ast.SelectorExpr); ok {
			id = x.Sel
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// funcKey names fn relative to the module; "" outside it.
func funcKey(fn *types.Func) string {
	if fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), module) {
		return ""
	}
	pkg := strings.TrimPrefix(fn.Pkg().Path(), module)
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return pkg + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	return pkg + "." + fn.Name()
}

// takesResult reports whether a function takes a result: a parameter or
// receiver whose type holds a model.Result.
func takesResult(sig *types.Signature) bool {
	if sig.Recv() != nil && holdsResult(sig.Recv().Type(), map[types.Type]bool{}) {
		return true
	}
	for v := range sig.Params().Variables() {
		if holdsResult(v.Type(), map[types.Type]bool{}) {
			return true
		}
	}
	return false
}

func holdsResult(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.(type) {
	case *types.Named:
		if o := u.Obj(); o.Pkg() != nil && o.Pkg().Path() == module+"model" && o.Name() == "Result" {
			return true
		}
		return holdsResult(u.Underlying(), seen)
	case *types.Alias:
		return holdsResult(types.Unalias(u), seen)
	case *types.Pointer:
		return holdsResult(u.Elem(), seen)
	case *types.Slice:
		return holdsResult(u.Elem(), seen)
	case *types.Array:
		return holdsResult(u.Elem(), seen)
	case *types.Map:
		return holdsResult(u.Key(), seen) || holdsResult(u.Elem(), seen)
	case *types.Struct:
		for f := range u.Fields() {
			if holdsResult(f.Type(), seen) {
				return true
			}
		}
	}
	return false
}
