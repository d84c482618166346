package gate

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// CorpusNotFound is the error of a search of the workspace that found no
// corpus where one is required, or several: it says what was searched
// and how to choose, in the words of the front end.
type CorpusNotFound struct {
	runner.CorpusChoice
	spelling Spelling
}

// ExitCode is unusable input: the user must say which corpus to run.
func (e *CorpusNotFound) ExitCode() int { return ExitUsage }

func (e *CorpusNotFound) Error() string {
	var b strings.Builder
	if len(e.Found) > 1 {
		fmt.Fprintf(&b, "%d DRP2 corpora in the workspace (%s): set %s to the one to run", len(e.Found), strings.Join(e.Found, ", "), e.spelling.Corpus)
	} else {
		fmt.Fprintf(&b, "no DRP2 corpus in the workspace: set %s to the folder holding %s (in datoviz's layout, %s)",
			e.spelling.Corpus, runner.FolderList(), e.spelling.CorpusExample)
	}
	fmt.Fprintf(&b, ". Looked for %s, then ./%s, then any folder holding the three, %s", runner.UpstreamCorpus, runner.ConventionalCorpus, e.Searched())
	return b.String()
}

// Searched says where the search looked, for the message and the summary.
func (e *CorpusNotFound) Searched() string {
	noun := "folders"
	if e.Folders == 1 {
		noun = "folder"
	}
	s := fmt.Sprintf("down to %d folders deep (%d %s searched; hidden folders, node_modules and links skipped)",
		runner.CorpusSearchDepth, e.Folders, noun)
	if e.Search.Truncated {
		s += fmt.Sprintf("; the search stopped after %d entries", runner.CorpusSearchEntries)
	}
	return s
}

// chooseCorpus is the corpus a job runs ("" for the embedded one) and,
// when none was named, how the one discovery found it: the corpus holding
// the first PATH, else the workspace's (runner.FindCorpus). A search that
// finds none runs the embedded corpus unless the job requires one of the
// workspace's, or the search was cut short; one that finds several stops
// the job.
func chooseCorpus(wd string, job Job) (string, *model.CorpusSearch, error) {
	switch {
	case job.MergeOnly:
		return job.Corpus, nil, nil
	case job.Corpus == runner.Embedded:
		return "", nil, nil
	case job.Corpus != "":
		return job.Corpus, nil, nil
	}
	if len(job.Paths) > 0 {
		if dir, ok := corpusAbove(under(wd, job.Paths[0])); ok {
			return relTo(wd, dir), &model.CorpusSearch{By: model.CorpusOfPath}, nil
		}
	}
	choice, err := runner.FindCorpus(wd)
	if err != nil {
		return "", nil, &Error{Code: ExitUsage, Err: err}
	}
	search := choice.Search
	switch {
	case choice.Path != "":
		return choice.Path, &search, nil
	case len(choice.Found) == 0 && !search.Truncated && !job.RequireCorpus:
		return "", &search, nil
	}
	sp := job.Spelling
	if sp.Corpus == "" {
		sp = FlagSpelling
	}
	return "", nil, &CorpusNotFound{CorpusChoice: choice, spelling: sp}
}
