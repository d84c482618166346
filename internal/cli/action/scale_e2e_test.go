//go:build e2e

package action_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/corpusgen"
	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// scaleSeed is the one fixture, about 1 KB, that every fixture of the
// scale run copies with a wrong expectation.
const scaleSeed = "negative/invalid_identity_unknown_buffer_write.json"

// TestActionAtScale runs the built binary as a Docker action step against
// a fake GitHub, on a corpus of failing copies of one fixture: 3,000 of
// them, or DRP2_SCALE_FIXTURES (50,000 for the figures of
// docs/development.md). DRP2_SCALE_BINARY runs another build instead, and
// DRP2_SCALE_GOMEMLIMIT sets GOMEMLIMIT, to compare. It logs the time, the peak RSS and the size of every report,
// and fails when a report outgrows its bound or a total is not the run's.
func TestActionAtScale(t *testing.T) {
	n := 3000
	if s := os.Getenv("DRP2_SCALE_FIXTURES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("DRP2_SCALE_FIXTURES: %v", err)
		}
	}
	bin := os.Getenv("DRP2_SCALE_BINARY")
	if bin == "" {
		bin = builtBinary(t)
	}
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	// A loaded machine writes 50,000 reports slowly: the API must still
	// answer.
	w.Env["DRP2_FIXTURES_API_BUDGET"], w.Env["DRP2_FIXTURES_API_ATTEMPT_TIMEOUT"] = "10m", "2m"
	if l := os.Getenv("DRP2_SCALE_GOMEMLIMIT"); l != "" {
		// To compare with the soft limit the binary would choose.
		w.Env["GOMEMLIMIT"] = l
	}
	data, err := fs.ReadFile(fixtures.FS, scaleSeed)
	if err != nil {
		t.Fatal(err)
	}
	seed := fstest.MapFS{scaleSeed: {Data: data}, "positive": {Mode: fs.ModeDir}, "negative_schema": {Mode: fs.ModeDir}}
	if err := corpusgen.Corpus(seed, filepath.Join(w.Dir, "corpus"), corpusgen.Options{Count: n, MismatchEvery: 1}); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "log")
	wall, cpu, rss := runMeasured(t, bin, w, logPath)
	sizes := map[string]int64{}
	for name, p := range map[string]string{"JUnit": filepath.Join(w.Dir, "drp2-fixtures-junit.xml"),
		"JSON": filepath.Join(w.Dir, "drp2-fixtures.json"), "log": logPath, "summary": w.Summary} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		sizes[name] = st.Size()
	}
	comments := gh.Comments(7)
	comment := 0
	if len(comments) == 1 {
		comment = utf8.RuneCountInString(comments[0].Body)
	}
	t.Logf("%d failing fixtures: %.2f s (cpu %.2f s), peak RSS %d MB; JUnit %d B, JSON %d B, log %d B, summary %d B, comment %d characters",
		n, wall.Seconds(), cpu.Seconds(), rss>>20, sizes["JUnit"], sizes["JSON"], sizes["log"], sizes["summary"], comment)

	// The bounds of docs/development.md: the log and the summary whatever
	// the run, the two files a verdict's worth of bytes a fixture past the
	// first failures in full.
	full := int64(min(n, escape.FullFailures))
	for name, limit := range map[string]int64{
		"log": full*2<<10 + 256<<10,
		// The report at most 512 KiB, then the notes on publishing.
		"summary": 520 << 10,
		"JUnit":   full*4<<10 + int64(n)*600,
		"JSON":    full*4<<10 + int64(n)*1200,
	} {
		if sizes[name] > limit {
			t.Errorf("%s is %d bytes, over its bound of %d", name, sizes[name], limit)
		}
	}
	if len(comments) != 1 || comment > 65536 {
		t.Errorf("%d comments, the first %d characters long", len(comments), comment)
	}
	outs := testkit.ReadOutputs(t, w.Output)
	want := strconv.Itoa(n)
	if outs["total"] != want || outs["run"] != want || outs["failed"] != want || outs["passed"] != "0" {
		t.Errorf("outputs: %v, want %d run and failed", outs, n)
	}
	junit, _ := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures-junit.xml"))
	if c := strings.Count(string(junit), "<testcase "); c != n || !strings.Contains(string(junit), fmt.Sprintf(`tests="%d" failures="%d"`, n, n)) {
		t.Errorf("JUnit: %d testcases, want %d:\n%.600s", c, n, junit)
	}
	if left := n - int(full); left > 0 {
		says := fmt.Sprintf("%d more failing fixtures, counted", left)
		logText, _ := os.ReadFile(logPath)
		summary, _ := os.ReadFile(w.Summary)
		for where, text := range map[string]string{"log": string(logText), "summary": string(summary), "comment": comments[0].Body} {
			if !strings.Contains(text, says) {
				t.Errorf("the %s does not say %q", where, says)
			}
		}
	}
}

// runMeasured runs the binary's action subcommand in the workspace, its
// log to logPath, and returns its wall and processor time and peak RSS.
func runMeasured(t *testing.T, bin string, w *sandbox, logPath string) (wall, cpu time.Duration, rss int64) {
	t.Helper()
	cmd := exec.Command(bin, "action")
	cmd.Dir = w.Dir
	for k, v := range w.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	sort.Strings(cmd.Env)
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if ee, ok := err.(*exec.ExitError); !ok && err != nil || ok && ee.ExitCode() != 1 {
		t.Fatalf("action: %v (exit code 1 expected: every fixture fails)", err)
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), peakRSS(cmd.ProcessState)
}
