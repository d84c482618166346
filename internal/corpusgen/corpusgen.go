// Package corpusgen builds large DRP2 corpora and long streams for scale
// tests and benchmarks. Its output is deterministic: the same arguments give
// the same bytes.
package corpusgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Options shape a generated corpus.
type Options struct {
	// Count is the number of fixtures to write.
	Count int
	// MismatchEvery makes every n-th fixture a mismatch (its expected code
	// or outcome changed); 0 makes none.
	MismatchEvery int
	// BrokenEvery makes every n-th fixture unusable (its JSON cut in half);
	// 0 makes none.
	BrokenEvery int
}

// source is one fixture of the seed corpus.
type source struct {
	rel  string
	name string
	doc  map[string]any
}

// Corpus writes opts.Count fixtures under dst, cycling through the fixtures
// of src (a corpus root with positive/, negative/, negative_schema/) in
// lexical order. Copy k of fixture x is named x_k in a file of that name in
// x's folder, so names stay unique and folders keep their classes.
func Corpus(src fs.FS, dst string, opts Options) error {
	seeds, err := load(src)
	if err != nil {
		return err
	}
	if len(seeds) == 0 {
		return fmt.Errorf("no fixtures in the seed corpus")
	}
	made := map[string]bool{}
	for i := 0; i < opts.Count; i++ {
		s := seeds[i%len(seeds)]
		name := fmt.Sprintf("%s_%06d", s.name, i)
		doc := clone(s.doc)
		doc["name"] = name
		if opts.MismatchEvery > 0 && (i+1)%opts.MismatchEvery == 0 {
			mismatch(doc)
		}
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return fmt.Errorf("%s: %w", s.rel, err)
		}
		if opts.BrokenEvery > 0 && (i+1)%opts.BrokenEvery == 0 {
			data = data[:len(data)/2]
		}
		dir := filepath.Join(dst, filepath.FromSlash(path.Dir(s.rel)))
		if !made[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			made[dir] = true
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func load(src fs.FS) ([]source, error) {
	var seeds []source
	for _, folder := range model.Folders {
		err := fs.WalkDir(src, folder, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			data, err := fs.ReadFile(src, p)
			if err != nil {
				return err
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			var doc map[string]any
			if err := dec.Decode(&doc); err != nil {
				return fmt.Errorf("seed %s: %w", p, err)
			}
			name, _ := doc["name"].(string)
			seeds = append(seeds, source{rel: p, name: name, doc: doc})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(seeds, func(i, j int) bool { return seeds[i].rel < seeds[j].rel })
	return seeds, nil
}

// mismatch changes a fixture's expectation so that it no longer matches.
func mismatch(doc map[string]any) {
	exp, _ := doc["expected"].(map[string]any)
	if exp == nil {
		return
	}
	if exp["outcome"] == "success" {
		exp["outcome"] = "error"
		exp["phase"] = "semantic_validation"
		exp["code"] = "DRP2_ERR_INVALID_STATE"
		return
	}
	if exp["code"] == "DRP2_ERR_INTERNAL" {
		exp["code"] = "DRP2_ERR_OOM"
		return
	}
	exp["code"] = "DRP2_ERR_INTERNAL"
}

// clone copies the top level and the expected block, the parts a copy
// changes; commands are shared read-only.
func clone(doc map[string]any) map[string]any {
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		out[k] = v
	}
	if exp, ok := doc["expected"].(map[string]any); ok {
		e := make(map[string]any, len(exp))
		for k, v := range exp {
			e[k] = v
		}
		out["expected"] = e
	}
	return out
}
