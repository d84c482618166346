package runner

// Finding the DRP2 corpus of a workspace when none is named: the one
// discovery of both front ends. A corpus root is a folder holding the
// three corpus folders (positive/, negative/, negative_schema/). The
// upstream layout (spec/drp2/fixtures, as in datoviz) is taken first, then
// ./fixtures, each when it holds any of the three (a corpus that lost a
// folder is still the corpus, and must not make way for another); then
// the one folder of the workspace that holds all three. What to do when
// there is none, or several, is the front end's choice (gate.Resolve).
//
// The pull request lays out the workspace, so the search follows no link,
// skips hidden folders (.git) and node_modules, goes no deeper than
// CorpusSearchDepth and reads at most CorpusSearchEntries directory entries
// in all.

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

const (
	// UpstreamCorpus is where the DRP2 spec keeps its corpus.
	UpstreamCorpus = "spec/drp2/fixtures"
	// ConventionalCorpus is the corpus folder this project's own layout uses.
	ConventionalCorpus = "fixtures"
	// CorpusSearchDepth is how many folders below the workspace a corpus root can be
	// found (spec/drp2/fixtures is 3).
	CorpusSearchDepth = 6
	// CorpusSearchEntries bounds the directory entries read in one search, so that a
	// workspace of any size is searched in bounded time.
	CorpusSearchEntries = 20000
)

// CorpusChoice is what a search of a workspace found.
type CorpusChoice struct {
	// Path is the corpus root relative to the workspace, with slashes;
	// "" when the search found none, or several.
	Path string
	// Search says how Path was found, and whether the search was cut
	// short (then Path, or the absence of one, is not the whole truth).
	Search model.CorpusSearch
	// Found are the corpus roots the search of the folders found, sorted:
	// several when Path is "" for that reason.
	Found []string
	// Folders is how many folders the search read.
	Folders int
}

// FindCorpus searches the workspace at root for its corpus. An error means
// root itself could not be read.
func FindCorpus(root string) (CorpusChoice, error) { return findCorpus(root, CorpusSearchEntries) }

// findCorpus is FindCorpus reading at most limit directory entries.
func findCorpus(root string, limit int) (CorpusChoice, error) {
	if isCorpus(root, UpstreamCorpus) {
		return CorpusChoice{Path: UpstreamCorpus, Search: model.CorpusSearch{By: model.CorpusUpstream}}, nil
	}
	if isCorpus(root, ConventionalCorpus) {
		return CorpusChoice{Path: ConventionalCorpus, Search: model.CorpusSearch{By: model.CorpusConventional}}, nil
	}
	s := corpusSearch{root: root, limit: limit}
	if err := s.run(); err != nil {
		return CorpusChoice{}, err
	}
	c := CorpusChoice{Found: s.found, Folders: s.folders, Search: model.CorpusSearch{By: model.CorpusNone, Truncated: s.truncated}}
	if len(s.found) == 1 {
		c.Path, c.Search.By = s.found[0], model.CorpusSearched
	}
	return c, nil
}

// FolderList names the corpus folders as a message lists them.
func FolderList() string {
	names := make([]string, len(model.Folders))
	for i, f := range model.Folders {
		names[i] = f + "/"
	}
	return strings.Join(names, ", ")
}

// isCorpus says whether rel below root is a real folder (no link on the
// way) holding any of the three corpus folders as a real folder.
func isCorpus(root, rel string) bool {
	dir := root
	for _, part := range strings.Split(rel, "/") {
		dir = filepath.Join(dir, part)
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			return false
		}
	}
	for _, f := range model.Folders {
		if fi, err := os.Lstat(filepath.Join(dir, f)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

type corpusSearch struct {
	root      string
	limit     int
	found     []string
	folders   int
	entries   int
	truncated bool
}

// run searches breadth first in lexical order, so the same workspace
// gives the same answer, and the entry bound cuts it at the same place.
func (s *corpusSearch) run() error {
	queue := []string{"."}
	for len(queue) > 0 && !s.truncated {
		rel := queue[0]
		queue = queue[1:]
		subdirs, err := s.list(rel)
		if err != nil {
			if rel == "." {
				return fmt.Errorf("search the workspace for a corpus: %w", err)
			}
			continue // an unreadable folder holds no corpus we can run
		}
		s.folders++
		if holdsCorpus(subdirs) {
			s.found = append(s.found, rel)
			continue // fixtures below a corpus root belong to it
		}
		if folderDepth(rel) >= CorpusSearchDepth {
			continue
		}
		for _, d := range subdirs {
			if strings.HasPrefix(d, ".") || d == "node_modules" {
				continue
			}
			queue = append(queue, path.Join(rel, d))
		}
	}
	sort.Strings(s.found)
	return nil
}

func folderDepth(rel string) int {
	if rel == "." {
		return 0
	}
	return strings.Count(rel, "/") + 1
}

func holdsCorpus(subdirs []string) bool {
	n := 0
	for _, f := range model.Folders {
		if i := sort.SearchStrings(subdirs, f); i < len(subdirs) && subdirs[i] == f {
			n++
		}
	}
	return n == len(model.Folders)
}

// list returns the real folders directly inside rel, sorted, within what
// is left of the entry bound.
func (s *corpusSearch) list(rel string) ([]string, error) {
	names, read, full, err := workspace.New(s.root, true).Folders(rel, s.limit-s.entries)
	s.entries += read
	if full || s.entries >= s.limit {
		s.truncated = true
	}
	return names, err
}
