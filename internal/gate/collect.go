package gate

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// MaxCollectedReport is the default bound of one report read for the
// site. A report of 5 implementations over 125 fixtures is about 300 KB,
// so a real one is far below it; far above it, reports published by
// anyone kept the site reading and collecting garbage for half an hour (4
// of 240 MB), so a larger one is refused, naming the file and the bound.
const MaxCollectedReport = 32 << 20

// clockSkew is how far ahead of the site build's clock a report may be
// dated: the clocks of the machines that ran it and of the one building
// the site differ, but not by days. A report dated later would stay the
// latest of its series whatever is published after it.
const clockSkew = 24 * time.Hour

// Collect reads the JSON reports named by inputs, the collect use case
// of the site: report files, folders (every *.json below them, in path
// order, hidden folders skipped) and glob patterns. Reports are published
// by anyone, so one that cannot be read (malformed, truncated, of a major
// version this build does not read) is a problem naming its file, and the
// others are still read, as is one larger than maxReport bytes. Files in
// skip (the site's own folder) are not read. An input that names nothing is a problem too. A report that
// predates corpus_sha256 gets the digest of its results' files, when
// every result recorded one. A report dated more than a day after the
// build's clock (env.Now, SOURCE_DATE_EPOCH when set) is a problem too:
// its series would show it as the latest report until that date.
//
// Reports are read on every core, and each is handed to add as soon as
// it is read (under a lock, in no particular order), so that the caller
// keeps of a thousand reports only what it needs. Problems come back in
// the order of the inputs.
func Collect(env Env, inputs []string, skip string, maxReport int64, add func(source string, run *model.Run)) (problems []error) {
	ws := workspace.New(env.WorkDir, false)
	files, problems := collectFiles(ws, inputs, skip)
	errs := make([]error, len(files))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run, err := readCollected(ws, env, files[i], maxReport)
				if err != nil {
					errs[i] = fmt.Errorf("%s: %v", ws.Display(files[i]), err)
					continue
				}
				mu.Lock()
				add(ws.Display(files[i]), run)
				mu.Unlock()
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			problems = append(problems, err)
		}
	}
	return problems
}

// collectFiles is the report files inputs name, each once, in the order
// given, and the inputs that name none.
func collectFiles(ws workspace.Dir, inputs []string, skip string) (files []string, problems []error) {
	skipAbs := ""
	if skip != "" {
		skipAbs = ws.Abs(skip)
	}
	seen := map[string]bool{}
	for _, in := range inputs {
		found, err := expand(ws, in)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		for _, f := range found {
			abs := ws.Abs(f)
			if (skipAbs != "" && within(skipAbs, abs)) || seen[abs] {
				continue
			}
			seen[abs] = true
			files = append(files, f)
		}
	}
	return files, problems
}

// within reports whether p is dir or below it: the site's own folder,
// whose data files are not reports, when it lies below an input folder.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// expand is the report files an input names, in path order.
func expand(ws workspace.Dir, in string) ([]string, error) {
	switch ws.Kind(in) {
	case workspace.File:
		return []string{in}, nil
	case workspace.Folder:
		return jsonBelow(ws, in)
	case workspace.Other:
		return nil, fmt.Errorf("%s: not a regular file or folder (links are not followed)", in)
	}
	if !strings.ContainsAny(in, "*?[") {
		return nil, fmt.Errorf("%s: no such file or folder", in)
	}
	matches, err := filepath.Glob(ws.Abs(in))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", in, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("%s: no file matches", in)
	}
	sort.Strings(matches)
	var files []string
	for _, m := range matches {
		more, err := expand(ws, m)
		if err != nil {
			return nil, err
		}
		files = append(files, more...)
	}
	return files, nil
}

// jsonBelow lists the *.json files below the folder dir, in path order.
func jsonBelow(ws workspace.Dir, dir string) ([]string, error) {
	var files []string
	// The walk reads no file: readCollected bounds each read.
	err := fs.WalkDir(ws.FS(dir, MaxCollectedReport), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if d.Type().IsRegular() && path.Ext(p) == ".json" {
			files = append(files, filepath.Join(dir, filepath.FromSlash(p)))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dir, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no *.json report below it", dir)
	}
	return files, nil
}

func readCollected(ws workspace.Dir, env Env, f string, maxReport int64) (*model.Run, error) {
	data, err := ws.ReadFile(f, maxReport)
	if err != nil {
		return nil, err
	}
	if env.ReadReport == nil {
		return nil, errNoReportReader
	}
	run, err := env.ReadReport(data)
	if err != nil {
		return nil, err
	}
	if now := env.Now; now != nil && run.Started.After(now().Add(clockSkew)) {
		return nil, fmt.Errorf("started %s, later than this build's clock (%s) by more than a day: a report dated in the future is refused",
			run.Started.UTC().Format(time.RFC3339), now().UTC().Format(time.RFC3339))
	}
	if run.CorpusDigest == "" && allDigested(run.Results) {
		run.CorpusDigest = runner.DigestOfResults(run.Results)
	}
	return run, nil
}

func allDigested(results []model.Result) bool {
	for i := range results {
		if results[i].Digest.File == "" {
			return false
		}
	}
	return len(results) > 0
}

// CompareRuns compares two runs fixture by fixture, as diff does: the
// comparison the site shows between an implementation's last two
// reports.
func CompareRuns(base, head *model.Run, name string) *model.Comparison {
	return baseline.Compare(base, head, name)
}
