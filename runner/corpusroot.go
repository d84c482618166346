package runner

// Finding the DRP2 corpus of a workspace when the action is not told where
// it is. A corpus root is a folder holding the three
// corpus folders (positive/, negative/, negative_schema/). The upstream
// layout (spec/drp2/fixtures, as in datoviz) is taken first, then
// ./fixtures, then the one corpus the workspace holds; none or several is
// an error that says what was searched and how to choose. The corpus
// embedded in the binary is never a fallback: a pull request's fixtures
// must be what runs, or the step must say they were not found.
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

// CorpusChoice is the corpus found and why it was taken.
type CorpusChoice struct {
	// Path is the corpus root relative to the workspace, with slashes.
	Path string
	// Why says how it was chosen, for the log and the summary.
	Why string
}

// CorpusNotFound is the error of a search that found no corpus, or several.
type CorpusNotFound struct {
	// Found are the corpus roots found (several, or none).
	Found []string
	// Folders is how many folders were searched; Truncated says the
	// search stopped at CorpusSearchEntries.
	Folders   int
	Truncated bool
	limit     int
}

func (e *CorpusNotFound) Error() string {
	var b strings.Builder
	if len(e.Found) > 1 {
		fmt.Fprintf(&b, "%d DRP2 corpora in the workspace (%s): set the corpus input to the one to run", len(e.Found), strings.Join(e.Found, ", "))
	} else {
		fmt.Fprintf(&b, "no DRP2 corpus in the workspace: set the corpus input to the folder holding %s (in datoviz's layout, corpus: %s)", folderList(), UpstreamCorpus)
	}
	fmt.Fprintf(&b, ". Looked for %s, then ./%s, then any folder holding the three, %s", UpstreamCorpus, ConventionalCorpus, e.Searched())
	return b.String()
}

// Searched says where the search looked, for the message and the summary.
func (e *CorpusNotFound) Searched() string {
	s := fmt.Sprintf("down to %d folders deep (%d %s searched; hidden folders, node_modules and links skipped)",
		CorpusSearchDepth, e.Folders, plural(e.Folders, "folder", "folders"))
	if e.Truncated {
		s += fmt.Sprintf("; the search stopped after %d entries", e.limit)
	}
	return s
}

func folderList() string {
	names := make([]string, len(model.Folders))
	for i, f := range model.Folders {
		names[i] = f + "/"
	}
	return strings.Join(names, ", ")
}

// Find chooses the corpus of the workspace at root.
func FindCorpus(root string) (CorpusChoice, error) {
	if isCorpus(root, UpstreamCorpus) {
		return CorpusChoice{Path: UpstreamCorpus, Why: "the upstream layout"}, nil
	}
	if isCorpus(root, ConventionalCorpus) {
		return CorpusChoice{Path: ConventionalCorpus, Why: "./" + ConventionalCorpus}, nil
	}
	s := corpusSearch{root: root, limit: CorpusSearchEntries}
	if err := s.run(); err != nil {
		return CorpusChoice{}, err
	}
	if len(s.found) == 1 {
		return CorpusChoice{Path: s.found[0], Why: "the only corpus in the workspace"}, nil
	}
	return CorpusChoice{}, &CorpusNotFound{Found: s.found, Folders: s.folders, Truncated: s.truncated, limit: s.limit}
}

// isCorpus says whether rel below root is a real folder (no link on the
// way) holding the three corpus folders as real folders.
func isCorpus(root, rel string) bool {
	dir := root
	for _, part := range strings.Split(rel, "/") {
		dir = filepath.Join(dir, part)
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			return false
		}
	}
	for _, f := range model.Folders {
		if fi, err := os.Lstat(filepath.Join(dir, f)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
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

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
