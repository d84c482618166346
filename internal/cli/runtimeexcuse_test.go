package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// The pull requests here change a runtime (the fake rt, as the workflow's
// implementation input builds it) so that it fails a fixture the base's
// runtime passed, and change rt.txt, an expectations file, to excuse it.
// The fixtures do not change, so the base's results of the runtime are
// its head's: only the base's expectations tell the excuse apart.

// runtimePR is a pull request's workspace as actions/checkout leaves it
// with fetch-depth 2: the base commit holds three passing fixtures and
// rt.txt as base says; the head writes rt.txt as head says. The action
// runs the runtime of spec, under the expectations in rt.txt.
func runtimePR(t *testing.T, baseList, headList string, spec fakeSpec) (*sandbox, string) {
	t.Helper()
	w := newWorkspace(t, "http://127.0.0.1:1", 7, "")
	w.Env["INPUT_GITHUB-TOKEN"] = ""
	w.Env["INPUT_EXPECTATIONS"] = "rt.txt"
	w.Env["INPUT_IMPLEMENTATION"] = fake(t, spec)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 3)
	writeFile(t, filepath.Join(w.Dir, "rt.txt"), "# rt's expectations\n"+baseList)
	base := commitAll(t, w.Dir, "base").String()
	writeFile(t, filepath.Join(w.Dir, "rt.txt"), "# rt's expectations\n"+headList)
	commitAll(t, w.Dir, "head: the runtime breaks a fixture and excuses it")
	setBase(t, w, base)
	return w, base[:7]
}

// A runtime's regression is not excused by an entry the pull request
// adds: a fail entry, a skip that keeps every fixture from the runtime, a
// flaky verdict from a retry. Each is a failure of the runtime with a
// finding saying why, and the headline names the file that changed. The
// same entry on the base still excuses it.
func TestPullRequestCannotExcuseItsRuntime(t *testing.T) {
	broken := fakeSpec{Name: "rt", Fail: []string{"render_case_000"}}
	cases := []struct {
		name, entry string
		spec        func(t *testing.T) fakeSpec
		retries     string
		failed      int
		finding     string
	}{
		{"an added fail entry", "rt positive/render_case_000.json fail # fixing it later\n",
			func(*testing.T) fakeSpec { return broken }, "0", 1,
			"listed as a known failure for rt (rt.txt:2), but it fails now: only an entry the base already had excuses a failure, and the base %s did not list it; its failure counts"},
		{"an added skip", "* positive/ skip\n",
			func(*testing.T) fakeSpec { return broken }, "0", 3,
			"skipped for rt (rt.txt:2), but only a skip the base already had keeps a fixture from an implementation, and the base %s did not list it; it counts as failed"},
		{"a pass on a retry", "",
			func(t *testing.T) fakeSpec {
				return fakeSpec{Name: "rt", First: []string{"render_case_000"}, Marks: t.TempDir()}
			}, "1", 1,
			"failed for rt and passed on attempt 2, but a pass on a retry is flaky only by an entry the base already had, and the base %s did not list it; its first failure counts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, short := runtimePR(t, "", tc.entry, tc.spec(t))
			w.Env["INPUT_RETRIES"] = tc.retries
			r := w.Run(t, inProcess)
			if r.Code != ExitMismatch || r.Outputs["conclusion"] != "failure" || r.Outputs["implementations-failed"] == "" {
				t.Fatalf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
			}
			if want := strings.ReplaceAll(tc.finding, "%s", short); !strings.Contains(r.Log, want) {
				t.Errorf("no finding %q:\n%s", want, r.Log)
			}
			if !strings.Contains(r.Log, "implementation rt 1.0 failed "+strconv.Itoa(tc.failed)+" of") {
				t.Errorf("the runtime's failures do not fail the step:\n%s", r.Log)
			}
			if tc.entry != "" {
				note := "the expectations file rt.txt changed against base " + short + " (1 added, 0 removed): " +
					strconv.Itoa(tc.failed) + " failure" + map[bool]string{true: "", false: "s"}[tc.failed == 1]
				if !strings.Contains(r.Summary, escape.MarkdownText(note)) {
					t.Errorf("the headline does not name the file that changed (%q):\n%.1500s", note, r.Summary)
				}
			}

			// Under fail-on regressions alone too: the base's list said
			// the runtime passed the fixture there.
			w.Env["INPUT_FAIL-ON"] = "regressions"
			if tc.spec(t).Marks != "" {
				w.Env["INPUT_IMPLEMENTATION"] = fake(t, tc.spec(t))
			}
			r = w.Run(t, inProcess)
			want := "implementation rt 1.0 fails " + strconv.Itoa(tc.failed) + " fixture"
			if r.Code != ExitMismatch || !strings.Contains(r.Log, want) {
				t.Errorf("fail-on regressions: exit %d, want %q\n%s", r.Code, want, r.Log)
			}

			// The same entry on the base: the runtime's failure was known
			// there, and the entry excuses it.
			entry := tc.entry
			if entry == "" {
				entry = "rt positive/render_case_000.json flaky # fails one run in two\n"
			}
			w, _ = runtimePR(t, entry, entry, tc.spec(t))
			w.Env["INPUT_RETRIES"] = tc.retries
			if r := w.Run(t, inProcess); r.Code != ExitOK || strings.Contains(r.Log, "the base already had") {
				t.Errorf("an entry the base had: exit %d\n%s", r.Code, r.Log)
			}
		})
	}
}

// The runtime's results made by another job (its own CI, which reads the
// pull request's rt.txt) and merged by the gate's results input: their
// excuses are held to the base's rt.txt when the gate is given it, and
// count when it is given none, since it cannot read the base's.
func TestPullRequestCannotExcuseAMergedRuntime(t *testing.T) {
	w, short := runtimePR(t, "", "rt positive/render_case_000.json fail\n", fakeSpec{Name: "rt", Fail: []string{"render_case_000"}})
	impl := w.Env["INPUT_IMPLEMENTATION"]
	// The runtime's job: green by its own expectations.
	if code, out, errs := run(t, w.Dir, "run", "corpus", "--implementation", impl, "--expectations", "rt.txt", "--json-out", "../rt.json"); code != ExitOK {
		t.Fatalf("the runtime's job: exit %d\n%s%s", code, out, errs)
	}
	w.Env["INPUT_IMPLEMENTATION"] = ""
	w.Env["INPUT_RESULTS"] = "rt.json"
	data, err := os.ReadFile(filepath.Join(w.Dir, "..", "rt.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(w.Dir, "rt.json"), string(data))
	for _, given := range []string{"rt.txt", ""} {
		w.Env["INPUT_EXPECTATIONS"] = given
		r := w.Run(t, inProcess)
		why := "the base " + short + " did not list it"
		if given == "" {
			why = "this job was given no expectations file to read the base's"
		}
		if r.Code != ExitMismatch || !strings.Contains(r.Log, "listed as a known failure for rt") || !strings.Contains(r.Log, why) {
			t.Errorf("expectations %q: exit %d\n%s", given, r.Code, r.Log)
		}
	}
}

// A pull request whose base commit is not in the checkout (fetch-depth 1,
// actions/checkout's default) cannot have its excuses held: every excused
// failure counts, the validator's too, and the finding says what to set.
// A push keeps its excuses.
func TestPullRequestExcusesWithoutItsBase(t *testing.T) {
	entry := "rt positive/render_case_000.json fail # known\ndrp2-fixtures positive/render_case_000.json fail # known\n"
	w, _ := runtimePR(t, entry, entry, fakeSpec{Name: "rt", Fail: []string{"render_case_000"}})
	// The fixture breaks for the validator too, listed on the base.
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 2)
	commitAll(t, w.Dir, "head: the fixture fails")
	for _, baseline := range []string{"auto", "off"} {
		w.Env["INPUT_BASELINE"] = baseline
		if baseline == "auto" {
			setBase(t, w, strings.Repeat("ab", 20)) // not in this checkout
		}
		r := w.Run(t, inProcess)
		if r.Code != ExitMismatch || !strings.Contains(r.Log, "listed as a known failure for rt (rt.txt:2), but it fails now: ") ||
			!strings.Contains(r.Log, "listed as a known failure (rt.txt:3), but it fails now: ") {
			t.Errorf("baseline %s: exit %d\n%s", baseline, r.Code, r.Log)
		}
		want := map[string]string{"auto": "fetch-depth", "off": "compare with baseline auto"}[baseline]
		if !strings.Contains(r.Log, want) {
			t.Errorf("baseline %s: the finding does not say %q:\n%s", baseline, want, r.Log)
		}
	}
	// A push: no pull request chose the entries.
	w.Env["GITHUB_EVENT_NAME"] = "push"
	if r := w.Run(t, inProcess); r.Code != ExitOK {
		t.Errorf("a push: exit %d\n%s", r.Code, r.Log)
	}
}

// commitAll commits everything in dir (a repository made on first use).
func commitAll(t *testing.T, dir, msg string) plumbing.Hash {
	return testkit.CommitAll(t, dir, msg, fixedNow)
}

// setBase writes the pull request's base commit into the event payload.
func setBase(t *testing.T, w *sandbox, base string) {
	t.Helper()
	var ev map[string]any
	if err := json.Unmarshal([]byte(mustRead(t, w.Event)), &ev); err != nil {
		t.Fatal(err)
	}
	ev["pull_request"].(map[string]any)["base"] = map[string]any{"sha": base}
	data, _ := json.Marshal(ev)
	writeFile(t, w.Event, string(data))
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A base given as a JSON report holds the runtime's own results there, so
// only its new failures are held: an old failure stays excused by an
// entry, and a new one is excused by none (the report has no list).
func TestRuntimeExcusesAgainstABaseReport(t *testing.T) {
	dir, _ := fakeCorpus(t, 3)
	writeFile(t, filepath.Join(dir, "rt.txt"), "rt positive/render_case_000.json fail\nrt positive/render_case_001.json fail\n")
	old := fake(t, fakeSpec{Name: "rt", Fail: []string{"render_case_000"}})
	if code, out, errs := run(t, dir, "run", "--implementation", old, "--expectations", "rt.txt", "--json-out", "base.json"); code != ExitOK {
		t.Fatalf("base: exit %d\n%s%s", code, out, errs)
	}
	args := []string{"run", "--expectations", "rt.txt", "--baseline", "base.json", "--fail-on", "mismatch,regressions"}
	if code, out, errs := run(t, dir, append(args, "--implementation", old)...); code != ExitOK {
		t.Errorf("an old failure: exit %d\n%s%s", code, out, errs)
	}
	broken := fake(t, fakeSpec{Name: "rt", Fail: []string{"render_case_000", "render_case_001"}})
	code, out, errs := run(t, dir, append(args, "--implementation", broken)...)
	if code != ExitMismatch || !strings.Contains(out, "listed as a known failure for rt (rt.txt:2), but it fails and passed on the base base.json now") ||
		strings.Contains(out, "(rt.txt:1), but") {
		t.Errorf("a new failure: exit %d\n%s%s", code, out, errs)
	}
}
