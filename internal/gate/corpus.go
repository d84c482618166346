package gate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/baseline"
	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// CorpusNotFound is the error of a search of the workspace that found no
// corpus where one is required, or several: it says what was searched
// and how to choose, in the words of the front end. It comes as unusable
// input (exit.Input).
type CorpusNotFound struct {
	runner.CorpusChoice
	spelling Spelling
}

func (e *CorpusNotFound) Error() string {
	var b strings.Builder
	if len(e.Found) > 1 {
		fmt.Fprintf(&b, "%d DRP2 corpora in the workspace%s (%s): set %s to the one to run", len(e.Found), e.atBase(), strings.Join(e.Found, ", "), e.spelling.Corpus)
	} else {
		fmt.Fprintf(&b, "no DRP2 corpus in the workspace%s: set %s to the folder holding %s (in datoviz's layout, %s)",
			e.atBase(), e.spelling.Corpus, runner.FolderList(), e.spelling.CorpusExample)
	}
	fmt.Fprintf(&b, ". Looked for %s, then ./%s, then any folder holding the three, %s", runner.UpstreamCorpus, runner.ConventionalCorpus, e.searched())
	return b.String()
}

// atBase says that the search read the pull request's base commit.
func (e *CorpusNotFound) atBase() string {
	if e.Search.Base == "" {
		return ""
	}
	return " at the pull request's base commit " + e.Search.Base
}

// searched says where the search looked, for the message and the summary.
func (e *CorpusNotFound) searched() string {
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
// when none was named, how the one discovery found it: the workspace's
// (runner.FindCorpus), for a pull request in the action the workspace's
// as its base commit held it (fromBase). A PATH never re-roots the corpus
// the search found: in the action the pull request lays out the
// workspace, and a folder named in paths would let it plant a corpus
// there. Only on the command line, when the search finds none, is the
// corpus the one holding the first PATH. A search that finds none runs
// the embedded corpus unless the job requires one of the workspace's, or
// the search was cut short; one that finds several stops the job, as does
// one cut short in the action.
func chooseCorpus(env Env, job job) (string, *model.CorpusSearch, error) {
	wd := env.WorkDir
	switch {
	case job.mergeOnly:
		return job.Corpus, nil, nil
	case job.Corpus == runner.Embedded:
		return "", nil, nil
	case job.Corpus != "":
		return job.Corpus, nil, nil
	}
	choice, err := runner.FindCorpus(wd)
	if err != nil {
		return "", nil, exit.New(exit.Input, err)
	}
	if job.RequireCorpus && baseline.PullRequestEvent(env.Getenv) {
		if choice, err = fromBase(env, choice); err != nil {
			return "", nil, err
		}
	}
	search := choice.Search
	none := len(choice.Found) == 0 && !search.Truncated
	switch {
	case choice.Path != "" && !(search.Truncated && job.RequireCorpus):
		return choice.Path, &search, nil
	case none && !job.RequireCorpus && len(job.Paths) > 0:
		if dir, ok := corpusAbove(under(wd, job.Paths[0])); ok {
			return relTo(wd, dir), &model.CorpusSearch{By: model.CorpusOfPath}, nil
		}
		return "", &search, nil
	case none && !job.RequireCorpus:
		return "", &search, nil
	}
	sp := job.Spelling
	if sp.Corpus == "" {
		sp = FlagSpelling
	}
	return "", nil, exit.New(exit.Input, &CorpusNotFound{CorpusChoice: choice, spelling: sp})
}

// fromBase is the search's answer as the pull request's base commit gives
// it, so that a pull request cannot choose the corpus the gate runs: not
// by breaking the corpus and adding another where the search looks
// first, nor by flooding the search past its bound. The pull request's
// own answer (head) is kept to be shown beside it when it differs. A base
// without a corpus leaves the choice to the pull request, which brings the
// first one. A base that cannot be read (a shallow checkout, a submodule
// not checked out) stops the job: the pull request's own answer would be
// the very choice the base is read to take from it.
func fromBase(env Env, head runner.CorpusChoice) (runner.CorpusChoice, error) {
	b, err := baseline.OpenBase(env.Getenv, env.WorkDir)
	var u *baseline.Unavailable
	if errors.As(err, &u) {
		return head, baseUnreadable(u.Cause(), "set `corpus:` on the step to the corpus to run, or `fetch-depth: 2` on actions/checkout so that the base commit is there")
	}
	if err != nil {
		return head, err
	}
	base, err := b.FindCorpus()
	if err != nil {
		return head, baseUnreadable(fmt.Sprintf("at base commit %s, %v", b.Short(), err), "or set `corpus:` on the step to the corpus to run")
	}
	if base.Path == "" && len(base.Found) == 0 && !base.Search.Truncated {
		return head, nil
	}
	base.Search.Base = b.Short()
	if mine := headAnswer(head); mine != base.Path {
		base.Search.HeadFound = mine
	}
	if base.Path != "" {
		if _, _, _, err := workspace.New(env.WorkDir, true).Folders(base.Path, 1); err != nil {
			return base, usagef("the corpus %s, which the search finds at the pull request's base commit %s, is not a folder of this checkout: "+
				"a pull request cannot move or remove the corpus the gate runs; to run another, name it in the workflow's corpus input", base.Path, b.Short())
		}
	}
	return base, nil
}

// baseUnreadable is the error of a pull request whose corpus is not named
// and whose base commit the search cannot read, saying why and the ways
// out.
func baseUnreadable(cause, ways string) error {
	return usagef("the corpus input is empty, and the corpus search cannot read the pull request's base commit, which decides the corpus a pull request runs "+
		"(the pull request must not choose it): %s; %s", strings.TrimSuffix(cause, "."), ways)
}

// headAnswer is what the search of the checkout found, in a few words.
func headAnswer(c runner.CorpusChoice) string {
	switch {
	case c.Path != "":
		return c.Path
	case len(c.Found) > 1:
		return strings.Join(c.Found, ", ")
	}
	return ""
}
