package baseline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// Spec values besides a path.
const (
	// Auto is the base commit of the pull request, or the commit before a
	// push, read from the workspace's git objects.
	Auto = "auto"
	// Off compares with nothing.
	Off = "off"
)

// ErrInput marks a baseline that cannot be used as named (a folder or
// report that does not exist or does not parse): unusable input.
var ErrInput = errors.New("unusable baseline")

// Options say what to compare a run with and how the run was made.
type Options struct {
	// Spec is Auto, Off (or empty), a folder holding a second checkout, or
	// a JSON report file; paths are relative to Config.WorkDir.
	Spec string
	// Config is the head run's configuration; the base runs the same way.
	// Its WorkDir must be set.
	Config runner.Config
	// Getenv reads the GitHub Actions variables that name the base commit
	// (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH); nil means none are set.
	Getenv func(string) string
	// Decode reads a baseline given as a JSON report.
	Decode Decoder
	// Implementations, when set, makes the base's implementation results
	// for a base commit or folder, which the validator alone ran; a JSON
	// report carries its own.
	Implementations ImplementationsFunc
}

// For compares head with the baseline opts names. It returns nil for Off;
// a comparison whose Unavailable says why there is none when the base
// cannot be had for a reason that must not stop the run; and an error
// wrapping ErrInput for a folder or report that cannot be used.
func For(ctx context.Context, opts Options, head *model.Run) (*model.Comparison, error) {
	spec := opts.Spec
	if spec == "" || spec == Off {
		return nil, nil
	}
	base, name, commit, notes, corpus, err := load(ctx, opts)
	var u *Unavailable
	if errors.As(err, &u) {
		return &model.Comparison{Unavailable: u.Reason}, nil
	}
	if err != nil {
		return nil, err
	}
	made := len(head.Implementations) > 0 && corpus != nil && opts.Implementations != nil
	if made {
		// A base commit or folder was run by the validator alone: its
		// implementations' results are made here (ImplementationsFunc).
		if base.Implementations, err = opts.Implementations(ctx, base, head, corpus); err != nil {
			return nil, err
		}
	}
	c := Compare(base, head, name)
	DescribeStreams(c, corpus, headCorpus(opts.Config))
	c.Commit = commit
	c.Notes = notes
	c.Implementations = CompareImplementations(base, head, made)
	return c, nil
}

// ImplementationsFunc gives a base run the results of the head's
// implementations on the base's fixtures, whose files corpus holds: the
// gate's, which runs implementations. It gives those the job ran itself,
// not those merged from other jobs' reports (their commands belong to
// other machines).
type ImplementationsFunc func(ctx context.Context, base, head *model.Run, corpus fs.FS) ([]model.Implementation, error)

// Load returns the base run opts names, the name to show for it and, for a
// commit, its full hash. The base is narrowed to the head's PATH filter.
func Load(ctx context.Context, opts Options) (run *model.Run, name, commit string, err error) {
	run, name, commit, _, _, err = load(ctx, opts)
	return run, name, commit, err
}

// load is Load with the notes on what of a base commit could not be read,
// and the files of the base's corpus (nil for a JSON report).
func load(ctx context.Context, opts Options) (run *model.Run, name, commit string, notes []string, corpus fs.FS, err error) {
	cfg := opts.Config
	switch spec := opts.Spec; {
	case spec == Auto:
		rev, err := AutoRevision(opts.Getenv)
		if err != nil {
			return nil, "", "", nil, nil, err
		}
		var from string
		run, commit, from, notes, corpus, err = fromRevision(ctx, cfg, rev)
		if err != nil {
			return nil, "", "", nil, nil, err
		}
		name = commit[:7] + from
	default:
		// The folder or report is held to the workspace like every input
		// file: no links below it, inside it when contained.
		ws := workspace.New(cfg.WorkDir, cfg.Contained)
		switch ws.Kind(spec) {
		case workspace.Folder:
			var tree *workspace.Tree
			if tree, err = ws.Tree(spec, 0); err == nil {
				tree.Close() // checked: no link on the way
				run, err = FromDir(ctx, cfg, ws.Abs(spec))
				corpus = folderCorpus(cfg, ws.Abs(spec))
			}
		case workspace.File:
			run, err = ReadReportFile(ws, spec, opts.Decode)
		case workspace.Missing:
			if _, rel := ws.Rel(spec); !rel && ws.Contained() {
				err = fmt.Errorf("baseline %s lies outside the workspace %s: files must stay inside it", spec, ws.Root())
			} else {
				err = fmt.Errorf("baseline %s: no such file or folder", spec)
			}
		default:
			err = fmt.Errorf("baseline %s is a symbolic link, or passes through one, or is not a regular file or folder: a baseline is read only from real files and folders", spec)
		}
		if err != nil {
			return nil, "", "", nil, nil, fmt.Errorf("%w: %w", ErrInput, err)
		}
		name = spec
	}
	narrow(run, cfg)
	return run, name, commit, notes, corpus, nil
}

// folderCorpus is the corpus of a base folder: at the place in dir where
// the head's corpus is in the working directory (as FromDir runs it).
func folderCorpus(cfg runner.Config, dir string) fs.FS {
	rel, ok := workspace.Within(cfg.WorkDir, workspace.Resolve(cfg.WorkDir, cfg.Corpus))
	if !ok || cfg.Corpus == "" {
		return nil
	}
	return workspace.New(dir, cfg.Contained).FS(filepath.Join(dir, rel), workspace.MaxInputFile)
}

// headCorpus is the head run's corpus folder, or nil for the corpus built
// into the tool.
func headCorpus(cfg runner.Config) fs.FS {
	if cfg.Corpus == "" || cfg.Corpus == runner.Embedded {
		return nil
	}
	return workspace.New(cfg.WorkDir, cfg.Contained).FS(workspace.Resolve(cfg.WorkDir, cfg.Corpus), workspace.MaxInputFile)
}

// FromDir runs cfg's corpus as it is in dir, a second checkout of the
// repository: the corpus and any schema named inside the working directory
// are taken at the same place relative to dir.
func FromDir(ctx context.Context, cfg runner.Config, dir string) (*model.Run, error) {
	if cfg.Corpus == "" {
		return nil, errors.New("baseline folder: the corpus is the one built into the tool; name the corpus to compare it with a folder")
	}
	if _, ok := workspace.Within(cfg.WorkDir, workspace.Resolve(cfg.WorkDir, cfg.Corpus)); !ok {
		return nil, fmt.Errorf("baseline folder %s: the corpus %s is outside the working directory, so it has no place in the folder", dir, cfg.Corpus)
	}
	rebase := func(p string) string {
		if p == "" || p == runner.Embedded {
			return p
		}
		abs := workspace.Resolve(cfg.WorkDir, p)
		rel, ok := workspace.Within(cfg.WorkDir, abs)
		if !ok {
			return abs // outside the checkout: the same file for both
		}
		return filepath.Join(dir, rel)
	}
	base := cfg
	base.WorkDir = dir // held to the same rules as the head's, below dir
	base.Paths = nil   // the head's filter is applied after, by corpus path
	base.Corpus = rebase(cfg.Corpus)
	base.CommandSchema = rebase(cfg.CommandSchema)
	base.FixtureSchema = rebase(cfg.FixtureSchema)
	run, err := runner.Run(ctx, base)
	if err != nil {
		return nil, fmt.Errorf("baseline folder %s: %w", dir, err)
	}
	return run, nil
}

// narrow keeps the base results of the head's shard and under its PATH
// filter, so that a run of one folder or shard is not compared with a
// whole corpus. Name and tag filters were applied by the runner (git and
// folder bases); a report is taken as it is.
func narrow(run *model.Run, cfg runner.Config) {
	if cfg.Shard != nil {
		// A sharded head is compared with the same shard of the base (a
		// report of the whole corpus, say), or the other shards' fixtures
		// would read as removed.
		kept := run.Results[:0]
		for _, r := range run.Results {
			if runner.InShard(cfg.Shard, r.RelPath) {
				kept = append(kept, r)
			}
		}
		run.Results = kept
		run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
	}
	if len(cfg.Paths) == 0 || cfg.Corpus == "" {
		return
	}
	corpus := workspace.Resolve(cfg.WorkDir, cfg.Corpus)
	var filter runner.PathFilter
	for _, p := range cfg.Paths {
		rel, ok := workspace.Within(corpus, workspace.Resolve(cfg.WorkDir, p))
		if !ok {
			continue
		}
		filter = append(filter, filepath.ToSlash(rel))
	}
	if len(filter) == 0 {
		// No PATH lies in the corpus: the runner refused such a head run.
		run.Results = run.Results[:0]
	}
	kept := run.Results[:0]
	for _, r := range run.Results {
		if filter.Keep(r.RelPath) {
			kept = append(kept, r)
		}
	}
	run.Results = kept
	run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
}

// Revision names a base commit: a revision (a hash, or HEAD^ outside
// Actions), or the merge base of HEAD and a branch.
type Revision struct {
	Rev string
	// MergeBaseOf, when set, is a branch: the base is the merge base of
	// HEAD and it (read from refs/remotes/origin/, else refs/heads/).
	MergeBaseOf string
}

// AutoRevision names the base commit for Auto: the pull request's base
// commit (pull_request, pull_request_target, and workflow_run when the run
// names its pull request), a merge queue entry's base_sha (merge_group),
// the commit before a push, the merge base of HEAD and the default branch
// on a workflow_run that names no pull request (a fork's), else the first
// parent of HEAD (a run outside GitHub Actions). On workflow_run, HEAD is
// the pull request's head, and on merge_group the queue's temporary
// commit, whose first parent may be another pull request's commit queued
// in the same group or one of several commits the queue rebased: HEAD^ is
// never the base there.
func AutoRevision(getenv func(string) string) (Revision, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	event, payloadPath := getenv("GITHUB_EVENT_NAME"), getenv("GITHUB_EVENT_PATH")
	if payloadPath == "" {
		if event == "workflow_run" || event == "merge_group" {
			return Revision{}, &Unavailable{Reason: "no comparison with the base: on " + event + " the base is named by the event payload, and GITHUB_EVENT_PATH is not set"}
		}
		return Revision{Rev: "HEAD^"}, nil
	}
	data, err := workspace.ReadOwn(payloadPath, workspace.MaxInputFile)
	if err != nil {
		return Revision{}, &Unavailable{Reason: fmt.Sprintf("no comparison with the base: read the event payload: %v", err)}
	}
	type pull struct {
		Base struct {
			SHA string `json:"sha"`
		} `json:"base"`
	}
	var ev struct {
		PullRequest *pull  `json:"pull_request"`
		Before      string `json:"before"`
		WorkflowRun *struct {
			PullRequests []pull `json:"pull_requests"`
		} `json:"workflow_run"`
		MergeGroup *struct {
			BaseSHA string `json:"base_sha"`
		} `json:"merge_group"`
		Repository struct {
			DefaultBranch string `json:"default_branch"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return Revision{}, &Unavailable{Reason: fmt.Sprintf("no comparison with the base: event payload %s: %v", payloadPath, err)}
	}
	switch {
	case ev.PullRequest != nil && ev.PullRequest.Base.SHA != "":
		return Revision{Rev: ev.PullRequest.Base.SHA}, nil
	case event == "merge_group" || ev.MergeGroup != nil:
		if ev.MergeGroup == nil || ev.MergeGroup.BaseSHA == "" {
			return Revision{}, &Unavailable{Reason: "no comparison with the base: the merge_group event names no base_sha, and HEAD^ may be a commit of the queue itself"}
		}
		return Revision{Rev: ev.MergeGroup.BaseSHA}, nil
	case event == "workflow_run" || ev.WorkflowRun != nil:
		if ev.WorkflowRun != nil && len(ev.WorkflowRun.PullRequests) > 0 && ev.WorkflowRun.PullRequests[0].Base.SHA != "" {
			return Revision{Rev: ev.WorkflowRun.PullRequests[0].Base.SHA}, nil
		}
		if b := ev.Repository.DefaultBranch; b != "" {
			return Revision{MergeBaseOf: b}, nil
		}
		return Revision{}, &Unavailable{Reason: "no comparison with the base: the workflow_run event names no pull request and no default branch, and HEAD^ would be a commit of the pull request itself"}
	case event == "push" && strings.Trim(ev.Before, "0") == "":
		return Revision{}, &Unavailable{Reason: "no comparison with the base: this push created the branch, so there is no commit before it"}
	case ev.Before != "":
		return Revision{Rev: ev.Before}, nil
	}
	return Revision{Rev: "HEAD^"}, nil
}
