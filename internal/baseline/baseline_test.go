package baseline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/jsonout"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// projectFixture returns a fixture of the project's own corpus.
func projectFixture(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// withExpectedCode rewrites a fixture's expected code, keeping the rest.
func withExpectedCode(t *testing.T, data []byte, code string) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["expected"].(map[string]any)["code"] = code
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// withoutCommand is the project's command schema with one command taken
// out of its oneOf: any fixture using that command fails the command
// schema, so a verdict moves while the fixture file stays the same.
func withoutCommand(t *testing.T, cmd string) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(schema.Command, &doc); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, b := range doc["oneOf"].([]any) {
		if b.(map[string]any)["$ref"] != "#/$defs/"+cmd {
			kept = append(kept, b)
		}
	}
	doc["oneOf"] = kept
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reindent changes the bytes of a fixture's commands but not their meaning.
func changeStream(t *testing.T, data []byte) []byte {
	t.Helper()
	// Another client name: the same expectation, another stream.
	out := bytes.Replace(data, []byte(`"client_name": "drp2-fixtures corpus"`), []byte(`"client_name": "another client"`), 1)
	if bytes.Equal(out, data) {
		t.Fatal("changeStream changed nothing")
	}
	return out
}

// reindent lays the fixture out again: white space only, which is no
// change at all.
func reindent(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "\t"); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(b.Bytes(), data) {
		t.Fatal("reindent changed nothing")
	}
	return b.Bytes()
}

// corpusFiles are the two commits' files: every kind of delta once.
func corpusFiles(t *testing.T) (base, head map[string][]byte) {
	fixed := projectFixture(t, "positive/copy_texture_to_texture_corner.json")
	regressed := projectFixture(t, "positive/render_indexed_draw.json")
	still := withExpectedCode(t, projectFixture(t, "negative/invalid_identity_destroyed_buffer_write.json"), "DRP2_ERR_BOGUS")
	addedPassing := projectFixture(t, "positive/session_handshake_ok.json")
	addedFailing := withExpectedCode(t, projectFixture(t, "negative/invalid_identity_duplicate_buffer_id.json"), "DRP2_ERR_BOGUS")
	removed := projectFixture(t, "negative/invalid_identity_duplicate_sampler_id.json")
	expRight := projectFixture(t, "negative/invalid_identity_unknown_buffer_write.json")
	expWrong := withExpectedCode(t, expRight, "DRP2_ERR_BOGUS")
	stream := projectFixture(t, "positive/upload_buffer_write.json")
	reindented := projectFixture(t, "positive/render_triangle_draw.json")
	renamed := projectFixture(t, "positive/submit_two_command_buffers.json")
	broken := projectFixture(t, "positive/session_handshake_ok.json")
	// A missing comma: the file is unreadable now.
	brokenNow := bytes.Replace(broken, []byte(`",`), []byte(`"`), 1)

	base = map[string][]byte{
		"schema/drp_command.json":                               withoutCommand(t, "CopyTextureToTexture"),
		"fixtures/positive/copy_texture_to_texture_corner.json": fixed,
		"fixtures/positive/render_indexed_draw.json":            regressed,
		"fixtures/negative/still_failing.json":                  still,
		"fixtures/negative/removed.json":                        removed,
		"fixtures/negative/expectation.json":                    expWrong,
		"fixtures/positive/stream.json":                         stream,
		"fixtures/positive/reindented.json":                     reindented,
		"fixtures/positive/submit_two_command_buffers.json":     renamed,
		"fixtures/positive/broken.json":                         broken,
		"README.md":                                             []byte("base\n"),
	}
	head = map[string][]byte{
		"schema/drp_command.json":                                 withoutCommand(t, "SetIndexBuffer"),
		"fixtures/positive/copy_texture_to_texture_corner.json":   fixed,
		"fixtures/positive/render_indexed_draw.json":              regressed,
		"fixtures/negative/still_failing.json":                    still,
		"fixtures/positive/added_passing.json":                    addedPassing,
		"fixtures/negative/added_failing.json":                    addedFailing,
		"fixtures/negative/expectation.json":                      expRight,
		"fixtures/positive/stream.json":                           changeStream(t, stream),
		"fixtures/positive/reindented.json":                       reindent(t, reindented),
		"fixtures/positive/moved/submit_two_command_buffers.json": renamed,
		"fixtures/positive/broken.json":                           brokenNow,
		"README.md":                                               []byte("head\n"),
	}
	return base, head
}

// wantChanges is the comparison of corpusFiles, in report order.
var wantChanges = []struct {
	rel        string
	transition model.Transition
	content    model.ContentChange
	from       string
}{
	{"positive/broken.json", model.Regressed, model.Broken, ""},
	{"positive/render_indexed_draw.json", model.Regressed, model.ContentSame, ""},
	{"negative/expectation.json", model.Fixed, model.ExpectationChanged, ""},
	{"positive/copy_texture_to_texture_corner.json", model.Fixed, model.ContentSame, ""},
	{"negative/added_failing.json", model.AddedFailing, model.ContentSame, ""},
	{"positive/added_passing.json", model.AddedPassing, model.ContentSame, ""},
	{"negative/removed.json", model.Removed, model.ContentSame, ""},
	{"negative/still_failing.json", model.StillFailing, model.ContentSame, ""},
	{"positive/moved/submit_two_command_buffers.json", model.StillPassing, model.Renamed, "positive/submit_two_command_buffers.json"},
	{"positive/reindented.json", model.StillPassing, model.MetadataChanged, ""},
	{"positive/stream.json", model.StillPassing, model.StreamChanged, ""},
}

var when = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// writeTree makes dir hold exactly files (apart from .git).
func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// commitAll commits the whole working tree and returns the commit hash.
func commitAll(t *testing.T, repo *git.Repository, msg string) plumbing.Hash {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: when}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// repoWithTwoCommits builds a repository whose first commit holds base and
// whose second (HEAD, also the working tree) holds head.
func repoWithTwoCommits(t *testing.T) (dir string, baseHash plumbing.Hash, base, head map[string][]byte) {
	t.Helper()
	dir = t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	base, head = corpusFiles(t)
	writeTree(t, dir, base)
	baseHash = commitAll(t, repo, "base")
	writeTree(t, dir, head)
	commitAll(t, repo, "head")
	return dir, baseHash, base, head
}

func headConfig(dir string) runner.Config {
	return runner.Config{Corpus: "fixtures", WorkDir: dir, Checker: drp2.New(), Workers: 2,
		Now: func() time.Time { return when }}
}

func runHead(t *testing.T, cfg runner.Config) *model.Run {
	t.Helper()
	run, err := runner.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func checkChanges(t *testing.T, c *model.Comparison) {
	t.Helper()
	if c.Unavailable != "" {
		t.Fatalf("unavailable: %s", c.Unavailable)
	}
	var got []string
	for _, ch := range c.Changes {
		got = append(got, fmt.Sprintf("%s %s %s %s", ch.RelPath, ch.Transition, ch.Content, ch.From))
	}
	var want []string
	for _, w := range wantChanges {
		want = append(want, fmt.Sprintf("%s %s %s %s", w.rel, w.transition, w.content, w.from))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantDelta := model.Delta{Regressed: 2, Fixed: 2, StillFailing: 1, AddedPassing: 1, AddedFailing: 1, Removed: 1,
		ExpectationChanged: 1, StreamChanged: 1, Renamed: 1, Broken: 1}
	if c.Delta() != wantDelta {
		t.Errorf("delta %+v, want %+v", c.Delta(), wantDelta)
	}
	if !c.CommandSchemaChanged || c.FixtureSchemaChanged {
		t.Errorf("schemas changed: command %v fixture %v, want true false", c.CommandSchemaChanged, c.FixtureSchemaChanged)
	}
}

// TestCommitDeltaKinds: a base commit read from git objects gives every
// kind of delta, and the paths of the base's fixtures are shown as the
// head's are.
func TestCommitDeltaKinds(t *testing.T) {
	dir, baseHash, _, _ := repoWithTwoCommits(t)
	cfg := headConfig(dir)
	head := runHead(t, cfg)
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg}, head)
	if err != nil {
		t.Fatal(err)
	}
	checkChanges(t, c)
	if c.Commit != baseHash.String() || c.Base != baseHash.String()[:7] {
		t.Errorf("base %q commit %q, want %s", c.Base, c.Commit, baseHash)
	}
	for _, ch := range c.Changes {
		if ch.Path != "fixtures/"+ch.RelPath {
			t.Errorf("%s shown as %s", ch.RelPath, ch.Path)
		}
	}
	// Each fixture once: the broken one among the regressions, the
	// changed expectation among the fixes.
	// The command schema lost SetIndexBuffer: the headline names the file
	// and the error the regressed fixture now fails with.
	wantHeadline := fmt.Sprintf(`2 regressed (1 broken), 2 fixed (1 expectation changed), 2 added, 1 removed (passed on the base: negative/removed.json), 1 stream changed, 1 renamed, command schema changed: drp_command.json (1 fixture now fails with: unknown command "SetIndexBuffer": not one of the 46 active commands) against base %s`, baseHash.String()[:7])
	if h := explain.ComparisonHeadline(c); h != wantHeadline {
		t.Errorf("headline %q\nwant     %q", h, wantHeadline)
	}
}

// TestSourcesAgree: the base commit, a folder holding the base checkout,
// and the JSON report of a run of that folder give the same comparison.
func TestSourcesAgree(t *testing.T) {
	dir, baseHash, baseFiles, _ := repoWithTwoCommits(t)
	cfg := headConfig(dir)
	head := runHead(t, cfg)

	gitRun, _, err := FromCommit(context.Background(), cfg, baseHash.String())
	if err != nil {
		t.Fatal(err)
	}

	folder := t.TempDir()
	writeTree(t, folder, baseFiles)
	dirCmp, err := For(context.Background(), Options{Spec: folder, Config: cfg}, head)
	if err != nil {
		t.Fatal(err)
	}
	checkChanges(t, dirCmp)

	var report bytes.Buffer
	if err := jsonout.Write(&report, gitRun); err != nil {
		t.Fatal(err)
	}
	reportPath := filepath.Join(t.TempDir(), "base.json")
	if err := os.WriteFile(reportPath, report.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonCmp, err := For(context.Background(), Options{Spec: reportPath, Config: cfg, Decode: jsonout.ReadReport}, head)
	if err != nil {
		t.Fatal(err)
	}
	checkChanges(t, jsonCmp)

	gitCmp := Compare(gitRun, head, "x")
	dirCmp.Base, jsonCmp.Base = "x", "x"
	// The JSON report keeps what a comparison needs, not every detail of
	// a result (the rule of a verdict, for one): compare the changes by
	// what they say.
	for _, other := range []*model.Comparison{dirCmp, jsonCmp} {
		if !reflect.DeepEqual(brief(gitCmp), brief(other)) {
			t.Errorf("comparisons differ:\n%v\n%v", brief(gitCmp), brief(other))
		}
	}
}

func brief(c *model.Comparison) []string {
	var out []string
	for _, ch := range c.Changes {
		s := fmt.Sprintf("%s %s %s %s %s", ch.Path, ch.Name, ch.Transition, ch.Content, ch.From)
		if ch.Base != nil {
			s += fmt.Sprintf(" base=%v/%s/%s/%s", ch.Base.Passed, ch.Base.Actual.Outcome, ch.Base.Actual.Phase, ch.Base.Actual.Code)
		}
		out = append(out, s)
	}
	return append(out, fmt.Sprintf("%+v %v %v", c.Delta(), c.CommandSchemaChanged, c.FixtureSchemaChanged))
}

// TestShallowCheckout: a base commit whose objects are missing leaves the
// run without a comparison and says exactly what to add to the workflow.
func TestShallowCheckout(t *testing.T) {
	dir, baseHash, _, _ := repoWithTwoCommits(t)
	h := baseHash.String()
	if err := os.Remove(filepath.Join(dir, ".git", "objects", h[:2], h[2:])); err != nil {
		t.Fatal(err)
	}
	// What actions/checkout leaves: the head commit, marked shallow.
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	headRef, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "shallow"), []byte(headRef.Hash().String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(payload, []byte(`{"pull_request":{"number":7,"base":{"sha":"`+h+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": payload}
	cfg := headConfig(dir)
	for _, getenv := range []func(string) string{func(k string) string { return env[k] }, nil} {
		c, err := For(context.Background(), Options{Spec: Auto, Config: cfg, Getenv: getenv}, runHead(t, cfg))
		if err != nil {
			t.Fatalf("a shallow checkout must not stop the run: %v", err)
		}
		if c == nil || !strings.Contains(c.Unavailable, "`fetch-depth: 2` on actions/checkout for pull requests") ||
			!strings.Contains(c.Unavailable, "not in this checkout") || len(c.Changes) != 0 {
			t.Errorf("comparison %+v, want one unavailable with the fetch-depth hint", c)
		}
	}
}

// TestAutoRevision: the base commit of a pull request or a merge queue
// entry, the commit before a push, HEAD^ outside Actions, and none for a
// push that made a branch.
func TestAutoRevision(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		p := filepath.Join(dir, fmt.Sprint(len(s))+".json")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		event, payload string
		want           Revision
		unavailable    string
	}{
		{"pull_request", `{"pull_request":{"base":{"sha":"aaa"}},"before":"bbb"}`, Revision{Rev: "aaa"}, ""},
		{"pull_request_target", `{"pull_request":{"base":{"sha":"ccc"}}}`, Revision{Rev: "ccc"}, ""},
		{"push", `{"before":"ddd"}`, Revision{Rev: "ddd"}, ""},
		{"push", `{"before":"0000000000000000000000000000000000000000"}`, Revision{}, "created the branch"},
		{"workflow_dispatch", `{}`, Revision{Rev: "HEAD^"}, ""},
		{"push", `{not json`, Revision{}, "event payload"},
		{"", "", Revision{Rev: "HEAD^"}, ""},
		// workflow_run: HEAD is the pull request's head, so HEAD^ is never
		// the base: the run's pull request's base, else the merge base
		// with the default branch.
		{"workflow_run", `{"workflow_run":{"head_sha":"fff","pull_requests":[{"number":3,"base":{"sha":"eee","ref":"main"}}]},"repository":{"default_branch":"main"}}`, Revision{Rev: "eee"}, ""},
		{"workflow_run", `{"workflow_run":{"head_sha":"fff","pull_requests":[]},"repository":{"default_branch":"trunk"}}`, Revision{MergeBaseOf: "trunk"}, ""},
		{"workflow_run", `{"workflow_run":{"head_sha":"fff","pull_requests":[]}}`, Revision{}, "names no pull request"},
		// merge_group: HEAD is the queue's temporary commit, whose first
		// parent may be another queued pull request's: the group's base.
		{"merge_group", `{"action":"checks_requested","merge_group":{"head_sha":"999","head_ref":"refs/heads/gh-readonly-queue/main/pr-7-888","base_sha":"888","base_ref":"refs/heads/main"}}`, Revision{Rev: "888"}, ""},
		{"merge_group", `{"action":"checks_requested","merge_group":{"head_sha":"999"}}`, Revision{}, "names no base_sha"},
		{"merge_group", "", Revision{}, "GITHUB_EVENT_PATH is not set"},
	} {
		env := map[string]string{"GITHUB_EVENT_NAME": c.event}
		if c.payload != "" {
			env["GITHUB_EVENT_PATH"] = write(c.payload)
		}
		got, err := AutoRevision(func(k string) string { return env[k] })
		if c.unavailable != "" {
			var u *Unavailable
			if !errMatches(err, &u) || !strings.Contains(u.Reason, c.unavailable) {
				t.Errorf("%s %s: %+v %v, want unavailable %q", c.event, c.payload, got, err, c.unavailable)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %s: %+v %v, want %+v", c.event, c.payload, got, err, c.want)
		}
	}
}

func errMatches(err error, u **Unavailable) bool {
	v, ok := err.(*Unavailable)
	*u = v
	return ok
}

// TestNotARepository: auto outside a git repository is no comparison, with
// a reason; a named folder or report that does not exist is unusable input.
func TestNotARepository(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{"fixtures/positive/a.json": projectFixture(t, "positive/session_handshake_ok.json")})
	cfg := headConfig(dir)
	head := runHead(t, cfg)
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg}, head)
	if err != nil || c == nil || !strings.Contains(c.Unavailable, "not in a git repository") {
		t.Errorf("auto outside git: %+v %v", c, err)
	}
	for _, spec := range []string{"nowhere", "nowhere.json"} {
		if _, err := For(context.Background(), Options{Spec: spec, Config: cfg}, head); err == nil || !strings.Contains(err.Error(), spec) {
			t.Errorf("%s: %v, want an error naming it", spec, err)
		}
	}
	if c, err := For(context.Background(), Options{Spec: Off, Config: cfg}, head); c != nil || err != nil {
		t.Errorf("off: %+v %v", c, err)
	}
}

// TestPathFilter: a head run narrowed to one folder is compared with the
// same folder of the base, not with the whole base corpus.
func TestPathFilter(t *testing.T) {
	dir, _, _, _ := repoWithTwoCommits(t)
	cfg := headConfig(dir)
	cfg.Paths = []string{"fixtures/positive"}
	head := runHead(t, cfg)
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg}, head)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range c.Changes {
		if !strings.HasPrefix(ch.RelPath, "positive/") {
			t.Errorf("%s %s is outside the filter", ch.RelPath, ch.Transition)
		}
	}
	if c.Delta().Removed != 0 || c.Delta().Regressed != 2 { // render_indexed_draw and broken
		t.Errorf("delta %+v", c.Delta())
	}
}

// TestFirstParent: outside Actions auto is HEAD^; a first commit has none,
// and a parent a shallow clone left out gets the fetch-depth hint.
func TestFirstParent(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string][]byte{"fixtures/positive/a.json": projectFixture(t, "positive/session_handshake_ok.json")})
	first := commitAll(t, repo, "first")
	cfg := headConfig(dir)
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg}, runHead(t, cfg))
	if err != nil || c == nil || !strings.Contains(c.Unavailable, "is the first commit") {
		t.Errorf("first commit: %+v %v", c, err)
	}
	commitAll(t, repo, "second")
	c, err = For(context.Background(), Options{Spec: Auto, Config: cfg}, runHead(t, cfg))
	if err != nil || c == nil || c.Unavailable != "" || c.Commit != first.String() || len(c.Changes) != 0 {
		t.Errorf("second commit: %+v %v", c, err)
	}
	h := first.String()
	if err := os.Remove(filepath.Join(dir, ".git", "objects", h[:2], h[2:])); err != nil {
		t.Fatal(err)
	}
	c, err = For(context.Background(), Options{Spec: Auto, Config: cfg}, runHead(t, cfg))
	if err != nil || c == nil || !strings.Contains(c.Unavailable, "base commit "+h[:7]+" is not in this checkout") || !strings.Contains(c.Unavailable, "fetch-depth: 2") {
		t.Errorf("missing parent: %+v %v", c, err)
	}
}

// TestBaseThatCannotRun: a base commit whose schema does not compile
// leaves no comparison, with the reason, and no error.
func TestBaseThatCannotRun(t *testing.T) {
	dir, _, base, head := repoWithTwoCommits(t)
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	base["schema/drp_command.json"] = []byte(`{"oneOf": [`)
	writeTree(t, dir, base)
	commitAll(t, repo, "broken schema")
	writeTree(t, dir, head)
	commitAll(t, repo, "head again")
	cfg := headConfig(dir)
	c, err := For(context.Background(), Options{Spec: Auto, Config: cfg}, runHead(t, cfg))
	if err != nil || c == nil || !strings.Contains(c.Unavailable, "cannot be run") || !strings.Contains(c.Unavailable, "drp_command.json") {
		t.Errorf("comparison %+v, error %v", c, err)
	}
}
