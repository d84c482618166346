package runner

// The corpus a run reads: where its fixtures are read from, how their
// paths are shown, and which of them the PATH arguments select.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/workspace"
)

// corpus is where fixtures are read from and how their paths are shown.
type corpus struct {
	root    string // as given, or Embedded
	dir     string // absolute directory, empty when embedded
	fsys    fs.FS
	tree    *workspace.Tree // the corpus on disk, closed after the run
	workDir string
}

// workDir is cfg.WorkDir, or the process's working directory.
func workDir(cfg Config) (string, error) {
	if cfg.WorkDir != "" {
		return cfg.WorkDir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return wd, nil
}

func newCorpus(cfg Config) (*corpus, error) {
	wd, err := workDir(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Corpus == "" {
		if cfg.EmbeddedFS == nil {
			return nil, inputError("no corpus given and none embedded")
		}
		return &corpus{root: Embedded, fsys: cfg.EmbeddedFS, workDir: wd}, nil
	}
	ws := workspace.New(wd, cfg.Contained)
	switch ws.Kind(cfg.Corpus) {
	case workspace.Missing:
		return nil, inputError("corpus root %s: no such folder", cfg.Corpus)
	case workspace.File:
		return nil, inputError("corpus root %s is not a directory", cfg.Corpus)
	}
	tree, err := ws.Tree(cfg.Corpus, 0)
	if err != nil {
		return nil, inputError("corpus root: %v", err)
	}
	if _, err := tree.ReadDir("."); err != nil {
		tree.Close()
		return nil, inputError("corpus root: %v", err)
	}
	return &corpus{root: cfg.Corpus, dir: tree.Dir(), fsys: tree, tree: tree, workDir: wd}, nil
}

func (c *corpus) close() {
	if c.tree != nil {
		c.tree.Close()
	}
}

// display turns a corpus-relative path into the path shown in reports:
// relative to the working directory when the fixture lies under it.
func (c *corpus) display(rel string) string {
	if c.dir == "" {
		return Embedded + ":" + rel
	}
	return DisplayPath(c.workDir, c.root, rel)
}

// DisplayPath shows the corpus-relative path rel of a corpus on disk (as
// given, relative to workDir or absolute) the way a run shows its
// fixtures: relative to the working directory when the fixture lies under
// it, else below the corpus as given.
func DisplayPath(workDir, corpus, rel string) string {
	abs := filepath.Join(workspace.Resolve(workDir, corpus), filepath.FromSlash(rel))
	if r, ok := workspace.Within(workDir, abs); ok {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(filepath.Join(corpus, filepath.FromSlash(rel)))
}

// pathFilter turns PATH arguments into corpus-relative prefixes. On disk a
// PATH is a file or folder path; for the embedded corpus it is relative to
// the corpus root.
func (c *corpus) pathFilter(paths []string) (PathFilter, error) {
	var f PathFilter
	for _, p := range paths {
		if c.dir == "" {
			rel := strings.Trim(filepath.ToSlash(filepath.Clean(p)), "/")
			if _, err := fs.Stat(c.fsys, rel); err != nil {
				// Name the real problem: a file on disk that no corpus
				// holds is not a path into the embedded corpus.
				if _, err := os.Lstat(workspace.Resolve(c.workDir, p)); err == nil {
					return nil, inputError("path %s: no corpus holds it (no folder above it holds positive/, negative/ or negative_schema/), so the embedded corpus runs, which does not have it: give the corpus root with --corpus DIR", p)
				}
				return nil, inputError("path %s: no such file or folder, on disk or in the embedded corpus", p)
			}
			f = append(f, rel)
			continue
		}
		abs := workspace.Resolve(c.workDir, p)
		if _, err := os.Lstat(abs); err != nil {
			return nil, inputError("path %s: %v", p, unwrapPath(err))
		}
		rel, ok := workspace.Within(c.dir, abs)
		if !ok {
			return nil, inputError("path %s is outside the corpus %s", p, c.root)
		}
		f = append(f, filepath.ToSlash(rel))
	}
	return f, nil
}

// underPaths keeps the discovered files at or below paths.
func (c *corpus) underPaths(files, paths []string) ([]string, error) {
	filter, err := c.pathFilter(paths)
	if err != nil {
		return nil, err
	}
	var selected []string
	for _, rel := range files {
		if filter.Keep(rel) {
			selected = append(selected, rel)
		}
	}
	return selected, nil
}
