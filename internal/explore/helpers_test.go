package explore

import (
	"context"
	"io/fs"
	"path"
	"testing"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// embeddedSeeds are the fixtures of the project's embedded corpus.
func embeddedSeeds(tb testing.TB) []Seed {
	tb.Helper()
	var seeds []Seed
	err := fs.WalkDir(fixtures.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		data, err := fs.ReadFile(fixtures.FS, p)
		seeds = append(seeds, Seed{Path: p, Data: data})
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return seeds
}

// testConfig explores the embedded corpus with the built-in validator.
func testConfig(tb testing.TB, seed int64, impls ...string) Config {
	tb.Helper()
	v, err := runner.NewValidator(runner.Config{Checker: drp2.New()})
	if err != nil {
		tb.Fatal(err)
	}
	var rules []Rule
	for _, r := range drp2.Rules() {
		rules = append(rules, Rule{ID: r.ID, Code: r.Code, Summary: r.Summary})
	}
	checker := drp2.New()
	return Config{Seed: seed, Seeds: embeddedSeeds(tb), Validator: v, Rules: rules,
		Tracer:          func(s model.Stream, seen func(string, int)) { checker.CheckAt(context.Background(), s, seen) },
		Implementations: impls}
}
