package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// refWorkspace lays out the upstream layout (ws/schema/drp_command.json
// beside ws/fixtures/) with a command schema whose one branch is ref, and
// a secret outside the workspace.
func refWorkspace(t *testing.T, ref string, extra map[string]string) (ws, secret string) {
	t.Helper()
	secret = filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(secret, []byte(`"TOKEN-abc"`), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"fixtures/positive/hello.json": fixtureJSON("hello", success, hello, reply),
		"schema/drp_command.json":      fmt.Sprintf(`{"oneOf": [{"$ref": %q}]}`, strings.ReplaceAll(ref, "SECRET", secret)),
	}
	for k, v := range extra {
		files[k] = v
	}
	return writeCorpus(t, files), secret
}

// compileWithin runs the corpus and fails the test when schema compilation
// does not end within a few seconds.
func compileWithin(t *testing.T, cfg Config) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), cfg)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("schema compilation did not end")
		return nil
	}
}

// A schema's references resolve only to regular files inside its own
// folder tree: never outside it, never through a link, never the network;
// nor a special file that blocks the read (TestSchemaReferenceToAFIFOIsRefused,
// where there are FIFOs).
func TestSchemaReferencesStayInTheSchemaFolder(t *testing.T) {
	cases := []struct {
		name, ref string
		extra     map[string]string
		link      [2]string // a link to make: name inside the workspace, target
		want      string
	}{
		{name: "absolute file URL outside", ref: "file://SECRET", want: "outside the schema's folder"},
		{name: "relative path out of the folder", ref: "../fixtures/positive/hello.json", want: "outside the schema's folder"},
		{name: "the process's own files", ref: "file:///proc/self/environ", want: "outside the schema's folder"},
		{name: "network", ref: "https://example.invalid/x.json", want: "only schema files of the schema's own folder"},
		{name: "link inside the folder", ref: "./commands/a.json", link: [2]string{"schema/commands/a.json", "SECRET"}, want: "symbolic link"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, secret := refWorkspace(t, c.ref, map[string]string{"schema/commands/.keep": ""})
			if c.link[0] != "" {
				if err := os.Symlink(strings.ReplaceAll(c.link[1], "SECRET", secret), filepath.Join(ws, c.link[0])); err != nil {
					t.Fatal(err)
				}
			}
			wantRefused(t, ws, c.want)
		})
	}
}

// wantRefused compiles the workspace's schema, contained or not, and wants
// it refused as input, saying want, without quoting the secret.
func wantRefused(t *testing.T, ws, want string) {
	t.Helper()
	for _, contained := range []bool{false, true} {
		err := compileWithin(t, Config{Corpus: "fixtures", WorkDir: ws, Contained: contained})
		if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want) {
			t.Errorf("contained=%v: err = %v, want ErrInput saying %q", contained, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "TOKEN") {
			t.Errorf("the error quotes the secret: %v", err)
		}
	}
}

// References inside the folder tree still resolve, and a schema that
// refers to more files than a compilation may read stops with an error.
func TestSchemaReferencesInsideAndBounded(t *testing.T) {
	branch := `{"type": "object", "properties": {"cmd": {"const": "HelloRenderer"}}}`
	ws, _ := refWorkspace(t, "./commands/hello.json", map[string]string{"schema/commands/hello.json": branch})
	if err := compileWithin(t, Config{Corpus: "fixtures", WorkDir: ws, Contained: true}); err != nil {
		t.Fatalf("a reference inside the folder: %v", err)
	}

	// A chain of files, each referring to the next: more than the
	// compilation's document budget.
	extra := map[string]string{}
	const n = 1100
	for i := range n {
		extra[fmt.Sprintf("schema/c/%d.json", i)] = fmt.Sprintf(`{"$ref": "./%d.json"}`, i+1)
	}
	extra[fmt.Sprintf("schema/c/%d.json", n)] = branch
	ws, _ = refWorkspace(t, "./c/0.json", extra)
	err := compileWithin(t, Config{Corpus: "fixtures", WorkDir: ws})
	if err == nil || !strings.Contains(err.Error(), "more than 1000 files") {
		t.Errorf("a chain of %d references: %v", n, err)
	}
}
