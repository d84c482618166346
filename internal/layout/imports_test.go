package layout

import (
	"sort"
	"strings"
	"testing"
)

// allowed is which of the module's packages each package imports (test
// files aside): the shape of the code, written down. A new import edge, a
// removed one or a new package fails TestImportTable until this table says
// so, in the commit that changes the shape.
//
// The shape: main wires two front ends, the command line and the action,
// which stand side by side; each builds a request for a use case of
// internal/gate, the one door, and renders its outcome with the renderers
// of report/ (the table of formats) and the words of report/explain. The
// use cases drive the features (baseline, manifest, explore, harness),
// which drive the runner and its DRP2 rules. Leaves import nothing of the
// module: the model, the JSON packages, the workspace, the protocol, the
// exit codes, the escaping and sizes of sinks.
var allowed = map[string][]string{
	// Main and the front ends.
	"cmd/drp2-fixtures": {"internal/cli", "internal/cli/action", "internal/secret"},
	"cmd/drp2-gen":      {"fixtures", "internal/corpusgen"},
	"cmd/drp2-release":  {"internal/release"},
	// The command line renders the conformance site itself (report/site):
	// a folder of files, not one of the report formats of the table; and
	// rolls an expectations list from reports (internal/expect,
	// internal/workspace), a text file, not a run.
	"internal/cli":        {"internal/exit", "internal/expect", "internal/gate", "internal/secret", "internal/version", "internal/workspace", "model", "report", "report/escape", "report/explain", "report/site"},
	"internal/cli/action": {"internal/exit", "internal/gate", "internal/github", "internal/secret", "internal/workspace", "model", "report", "report/annotation", "report/escape", "report/explain", "report/markdown"},

	// The use cases.
	"internal/gate": {"internal/baseline", "internal/bound", "internal/exit", "internal/expect", "internal/explore", "internal/harness", "internal/manifest", "internal/workspace", "model", "runner", "runner/drp2"},
	// What every sink shows of a run, decided once: the caps of
	// report/escape applied to the model, for the use cases to give the
	// renderers.
	"internal/bound": {"model", "report/escape"},

	// The features.
	"internal/baseline": {"internal/workspace", "model", "runner"},
	"internal/explore":  {"internal/harness", "internal/jsontree", "model", "report/escape", "report/explain", "runner"},
	"internal/harness":  {"internal/jsonpos", "internal/level3", "internal/protocol", "internal/secret", "model", "report/escape", "runner"},
	// Level 3: the images the corpus describes, checked against their
	// references with the raster's decoding and comparison; the harness,
	// which holds the readbacks and repeats a fixture, drives it.
	"internal/level3": {"internal/raster", "model"},
	// The expectations lists, the known-failures list among them.
	"internal/expect":    {"model"},
	"internal/manifest":  {"internal/jsonpos", "internal/jsontree", "model", "report/escape"},
	"internal/corpusgen": {"model", "runner/drp2"},
	"internal/release":   {"internal/version"},

	// The runner contract, its rules, schemas and built-in corpus.
	"runner":      {"fixtures", "internal/jsoncompact", "internal/jsonpos", "internal/workspace", "model", "runner/schema"},
	"runner/drp2": {"internal/jsonpos", "model"},
	// The report schema, published for collectors, that a report read
	// back must satisfy.
	"docs":          {},
	"runner/schema": {},
	"fixtures":      {},

	// The renderers and their table.
	"report":                 {"internal/exit", "model", "report/annotation", "report/escape", "report/explain", "report/jsonout", "report/junit", "report/markdown", "report/text"},
	"report/annotation":      {"model", "report/escape", "report/explain"},
	"report/explain":         {"model", "report/escape"},
	"report/jsonout":         {"docs", "internal/jsonpos", "model", "report/escape", "report/explain"},
	"report/junit":           {"model", "report/escape", "report/explain"},
	"report/markdown":        {"model", "report/escape", "report/explain"},
	"report/text":            {"model", "report/escape", "report/explain"},
	"report/internal/sample": {"model"},
	// The conformance site: pages, badges and data from many runs; the
	// words of a comparison are report/explain's, as diff's are.
	"report/site": {"model", "report/escape", "report/explain"},

	// GitHub, the secrets the process holds.
	"internal/github":            {"internal/secret", "report/annotation", "report/escape"},
	"internal/github/githubtest": {},
	"internal/secret":            {"report/escape"},

	// Leaves.
	"model":                {},
	"internal/jsonpos":     {},
	"internal/jsoncompact": {},
	"internal/jsontree":    {},
	// How a command ends: the exit codes and the errors whose kind says
	// which, made in every layer and mapped to a code by the front end.
	"internal/exit":      {},
	"internal/workspace": {},
	"internal/protocol":  {},
	"internal/version":   {},
	"internal/raster":    {}, // Level 3's images: decoded, encoded, compared
	"report/escape":      {},

	// Tests' own packages.
	"internal/golden":  {},
	"internal/testkit": {},
	"internal/layout":  {},
}

// The budget of the shape: edges between the module's packages, imports
// of any one package, and layers (the longest chain of imports, main
// included).
const (
	// 94: the conformance site added a renderer (report/site, three
	// edges, those of every renderer) and the command line's edge to it.
	// 95: an exploration is model data, and its words report/explain's,
	// which the explore feature (for its candidates' descriptions) and the
	// table's explore renderings both import; report imports no feature.
	// 97: the JSON trees and compacting apart from the scanner
	// (internal/jsontree, internal/jsoncompact), the manifest's edge to
	// the trees and the runner's to compacting.
	// 100: the bound every sink is shown took three (internal/bound).
	// 103: the exit codes' errors (internal/exit), made by the use cases
	// and the report files, mapped by the command line, and the error of
	// the action's step.
	// 105: the command line checks a commit and a repository by the
	// shapes the model gives a run's provenance (model.IsCommit,
	// IsRepository), not through the door.
	// 106: a report read back is held to its published schema, which the
	// JSON report's reader takes from docs (a package of no imports).
	// 108: the command line's expectations roller reads reports through
	// the door (gate.Collect), reads the list it starts from through the
	// workspace's rules, as the action's front end reads its files, and
	// proposes the list with the lists' own package; the door's exported
	// names are at their budget, and a roll is no run.
	// 111: Level 3's check (internal/level3), its edges to the raster and
	// the model, and the harness's to it.
	maxEdges = 111
	// 11: the one door imports the bound of every sink and the exit
	// codes' errors beside the features it drives.
	maxImports = 11
	maxLayers  = 7
)

func TestImportTable(t *testing.T) {
	imports := list(t, "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", module+"...")
	for pkg, is := range imports {
		var got []string
		for _, i := range is {
			if strings.HasPrefix(i, module) {
				got = append(got, strings.TrimPrefix(i, module))
			}
		}
		sort.Strings(got)
		want, ok := allowed[pkg]
		if !ok {
			t.Errorf("%s has no row in the import table: add one saying what it may import", pkg)
			continue
		}
		want = append([]string(nil), want...)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s imports %v; the table says %v: change the table with the shape, or the code", pkg, got, want)
		}
	}
	for pkg := range allowed {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("the import table has a row for %s, which go list does not list", pkg)
		}
	}
}

func TestImportBudget(t *testing.T) {
	edges := 0
	for pkg, is := range allowed {
		edges += len(is)
		if len(is) > maxImports {
			t.Errorf("%s imports %d of the module's packages (at most %d): it is becoming a hub", pkg, len(is), maxImports)
		}
	}
	if edges > maxEdges {
		t.Errorf("%d import edges between the module's packages (at most %d)", edges, maxEdges)
	}
	depth := map[string]int{}
	var layer func(string, int) int
	layer = func(p string, guard int) int {
		if d, ok := depth[p]; ok {
			return d
		}
		if guard > len(allowed) {
			t.Fatalf("an import cycle through %s", p)
		}
		d := 1
		for _, q := range allowed[p] {
			d = max(d, 1+layer(q, guard+1))
		}
		depth[p] = d
		return d
	}
	for p := range allowed {
		if d := layer(p, 0); d > maxLayers {
			t.Errorf("%s is %d layers deep (at most %d)", p, d, maxLayers)
		}
	}
	t.Logf("%d packages, %d edges", len(allowed), edges)
}
