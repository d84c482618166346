package action_test

import (
	"encoding/base64"
	"fmt"
	"os"
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

// binary is the drp2-fixtures binary that builtBinary (an end-to-end
// test's helper) builds once; TestMain removes it.
var binary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}
