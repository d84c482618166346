package runner

// The corpus findings: warnings about the names and folders of fixtures,
// found over the results of a whole run. They never change a result.

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
)

// className names a class in a finding's message ("a Schema negative
// fixture ..."). The runner words its findings itself: it knows no
// reporter.
func className(c model.Class) string {
	switch c {
	case model.ClassPositive:
		return "Positive"
	case model.ClassNegative:
		return "Semantic negative"
	case model.ClassSchemaNegative:
		return "Schema negative"
	}
	return c.String()
}

// corpusFindings reports duplicate names, names that differ from the file
// stem, and fixtures whose folder disagrees with their class. They are
// warnings: they never change a result.
func corpusFindings(results []model.Result) []model.Finding {
	var out []model.Finding
	for i := range results {
		out = append(out, results[i].Findings...)
	}
	for i := range results {
		r := &results[i]
		if r.IsCorpusError() {
			continue
		}
		if s := stem(r.RelPath); r.Name != s {
			out = append(out, model.Finding{Kind: model.FindingNameStem, Path: r.Path,
				Message: fmt.Sprintf("fixture name %q differs from its file name %q", r.Name, s+".json")})
		}
		if want := r.Class.Folder(); want != "" && r.Folder != want {
			out = append(out, model.Finding{Kind: model.FindingFolderClass, Path: r.Path,
				Message: fmt.Sprintf("a %s fixture (expected outcome %q, phase %q) lies in %s/; its class comes from expected, so it runs as %s; move it to %s/",
					className(r.Class), r.Expected.Outcome, r.Expected.Phase, r.Folder, r.Class, want)})
		}
	}
	return append(out, DuplicateNames(results)...)
}

// DuplicateNames reports each fixture whose name an earlier one (in the
// order of results) already has. It needs every fixture of a run at once:
// a merge of shards finds the duplicates again over the merged results.
func DuplicateNames(results []model.Result) []model.Finding {
	// The first path of each name: every later fixture of that name is a
	// duplicate of it.
	first := make(map[string]string, len(results))
	var out []model.Finding
	for i := range results {
		r := &results[i]
		if r.IsCorpusError() {
			continue
		}
		p, seen := first[r.Name]
		if !seen {
			first[r.Name] = r.Path
			continue
		}
		if p != r.Path {
			out = append(out, model.Finding{Kind: model.FindingDuplicateName, Path: r.Path,
				Message: fmt.Sprintf("fixture name %q is also used by %s; names must be unique", r.Name, p)})
		}
	}
	return out
}
