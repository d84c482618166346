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
	"path"
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

// FolderTree lists the real folders of a tree: the working directory
// (workspace.Dir), or the tree of a commit, where a pull request cannot
// move what the search finds. Folders lists the real folders directly
// inside the folder rel ("." for the root), sorted, and fails when rel or
// any folder on the way is not a real folder; it reads at most max
// entries, says how many it read, and whether it stopped at max.
type FolderTree interface {
	Folders(rel string, max int) (names []string, read int, full bool, err error)
}

// FindCorpus searches the workspace at root for its corpus. An error means
// root itself could not be read.
func FindCorpus(root string) (CorpusChoice, error) {
	return FindCorpusIn(workspace.New(root, true), CorpusSearchEntries)
}

// FindCorpusIn is FindCorpus over any tree, reading at most limit
// directory entries in the search of its folders.
func FindCorpusIn(t FolderTree, limit int) (CorpusChoice, error) {
	if isCorpus(t, UpstreamCorpus) {
		return CorpusChoice{Path: UpstreamCorpus, Search: model.CorpusSearch{By: model.CorpusUpstream}}, nil
	}
	if isCorpus(t, ConventionalCorpus) {
		return CorpusChoice{Path: ConventionalCorpus, Search: model.CorpusSearch{By: model.CorpusConventional}}, nil
	}
	s := corpusSearch{tree: t, limit: limit}
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

// isCorpus says whether rel is a real folder of t (no link on the way)
// holding any of the three corpus folders as a real folder.
func isCorpus(t FolderTree, rel string) bool {
	names, _, _, err := t.Folders(rel, CorpusSearchEntries)
	if err != nil {
		return false
	}
	for _, f := range model.Folders {
		if i := sort.SearchStrings(names, f); i < len(names) && names[i] == f {
			return true
		}
	}
	return false
}

type corpusSearch struct {
	tree      FolderTree
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
	names, read, full, err := s.tree.Folders(rel, s.limit-s.entries)
	s.entries += read
	if full || s.entries >= s.limit {
		s.truncated = true
	}
	return names, err
}
