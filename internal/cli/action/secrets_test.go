package action_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
	"github.com/drp2/drp2-fixtures/internal/secret"
)

// leakyImplementation writes a shell script that speaks just enough of
// the protocol to be run, publishes the token in every way it can find it
// (body is shell code that prints on stderr), and crashes on every
// fixture so that its stderr is attached to the results.
func leakyImplementation(t *testing.T, dir, body string) string {
	t.Helper()
	script := filepath.Join(dir, "leaky.sh")
	src := `#!/bin/sh
read line
echo '{"type":"hello","protocol":1,"name":"leaky"}'
read line
` + body + `
exit 3
`
	if err := os.WriteFile(script, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	return "/bin/sh '" + script + "'"
}

// assertNoSecret fails when any text holds the token in any of its forms.
func assertNoSecret(t *testing.T, where, text string) {
	t.Helper()
	for _, f := range secret.Forms(token) {
		if len(f) >= secret.MinLength && strings.Contains(text, f) {
			t.Errorf("%s carries the token (as %q):\n%s", where, f, text)
			return
		}
	}
}

// everythingWritten is every text the step wrote or posted.
func everythingWritten(t *testing.T, w *sandbox, gh *githubtest.Server, r result) map[string]string {
	t.Helper()
	texts := map[string]string{"log": strings.Replace(r.Log, "::add-mask::"+token+"\n", "", 1), "summary": r.Summary}
	for name, v := range r.Outputs {
		texts["output "+name] = v
	}
	for _, f := range []string{"drp2-fixtures.json", "drp2-fixtures-junit.xml"} {
		b, err := os.ReadFile(filepath.Join(w.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(b)
	}
	for _, c := range gh.Comments(7) {
		texts[fmt.Sprintf("comment %d", c.ID)] = c.Body
	}
	for _, cr := range gh.CheckRuns() {
		texts["check run"] = cr.Title + "\n" + cr.Summary + "\n" + cr.Text
		for _, a := range cr.Annotations {
			texts["annotation"] += a.Title + "\n" + a.Message + "\n" + a.RawDetails + "\n"
		}
	}
	for _, req := range gh.Requests() {
		texts["request "+req.Method+" "+req.Path] += string(req.Body)
	}
	return texts
}

// TestTokenIsRedactedFromEverything: an implementation that finds the
// token (actions/checkout leaves it in .git/config, base64-encoded in an
// Authorization header) and prints it, raw and encoded, gets its stderr
// into the results, and the results into every sink, but never the token.
func TestTokenIsRedactedFromEverything(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 2)
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
	if err := os.MkdirAll(filepath.Join(w.Dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitConfig := "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " + basic + "\n"
	if err := os.WriteFile(filepath.Join(w.Dir, ".git", "config"), []byte(gitConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	w.Env["INPUT_IMPLEMENTATION"] = leakyImplementation(t, t.TempDir(), `
cat .git/config >&2
tok=$(sed -n 's/.*basic //p' .git/config | base64 -d | cut -d: -f2)
echo "the token is $tok, in hex: $(printf %s "$tok" | od -An -tx1 | tr -d ' \n')" >&2`)
	r := w.Run(t, inProcess)
	texts := everythingWritten(t, w, gh, r)
	for where, text := range texts {
		assertNoSecret(t, where, text)
	}
	// The implementation's words did reach the reports, redacted.
	if !strings.Contains(texts["drp2-fixtures.json"], "the token is ***") || !strings.Contains(texts["drp2-fixtures.json"], "in hex: ***") {
		t.Errorf("the implementation's stderr is not in the report:\n%s", texts["drp2-fixtures.json"])
	}
}

var binary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// builtBinary builds drp2-fixtures once for the tests that run it.
func builtBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "drp2-fixtures-bin")
		if err != nil {
			binary.err = err
			return
		}
		binary.path = filepath.Join(dir, "drp2-fixtures")
		build := exec.Command("go", "build", "-o", binary.path, "./cmd/drp2-fixtures")
		build.Dir = "../../.."
		binary.out, binary.err = build.CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("go build: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}

// TestImplementationCannotReadTheToken: the built binary, as a Docker
// action step runs it, starts an implementation that looks for the token
// where a process of the same user can: its parent's environment in /proc
// (the harness takes *TOKEN* variables out of the child's own). It finds
// nothing there, and it gets none of the runner's file commands, through
// which it could set the environment of the job's later steps.
func TestImplementationCannotReadTheToken(t *testing.T) {
	bin := builtBinary(t)
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 0, 2)
	files := t.TempDir()
	leak, envFile := filepath.Join(files, "leak"), filepath.Join(files, "set_env")
	w.Env["GITHUB_ENV"] = envFile
	w.Env["PATH"] = os.Getenv("PATH")
	w.Env["INPUT_IMPLEMENTATION"] = leakyImplementation(t, files, `
tr '\0' '\n' < /proc/$PPID/environ > '`+leak+`' 2>&1
cat '`+leak+`' >&2
for f in "$GITHUB_ENV" "$GITHUB_OUTPUT" "$GITHUB_STEP_SUMMARY"; do
  [ -n "$f" ] && echo "BASH_ENV=/tmp/evil" >> "$f"
done`)
	r := w.Run(t, inBinary(bin))
	read, err := os.ReadFile(leak)
	if err != nil {
		t.Fatalf("the implementation did not run: %v\n%s", err, r.Log)
	}
	if strings.Contains(string(read), token) {
		t.Errorf("the implementation read the token from its parent's environment:\n%s", read)
	}
	if !strings.Contains(string(read), "GITHUB_REPOSITORY") && !strings.Contains(string(read), "ermission denied") {
		t.Errorf("the implementation read neither its parent's environment nor a refusal:\n%s", read)
	}
	if b, _ := os.ReadFile(envFile); strings.Contains(string(b), "evil") {
		t.Errorf("the implementation wrote GITHUB_ENV: %s", b)
	}
	if b, _ := os.ReadFile(w.Output); strings.Contains(string(b), "evil") || strings.Contains(r.Summary, "evil") {
		t.Errorf("the implementation wrote the outputs or the summary: %s\n%s", b, r.Summary)
	}
	for where, text := range everythingWritten(t, w, gh, r) {
		assertNoSecret(t, where, text)
	}
}
