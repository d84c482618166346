package action_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/github/githubtest"
)

// TestJUnitPlacedAsTheAnnotations: the JUnit report places each failing
// testcase where the check run's annotation of it stands, at the path
// relative to the repository (the workspace), never the container's mount
// point; junit-strict: true leaves file and line out.
func TestJUnitPlacedAsTheAnnotations(t *testing.T) {
	gh := githubtest.New(t, githubtest.Options{Token: token})
	w := newWorkspace(t, gh.URL, 7, repoName)
	writeCorpus(t, filepath.Join(w.Dir, "corpus"), 1, 1)
	if r := w.Run(t, inProcess); r.Code != 1 {
		t.Fatalf("exit %d\n%s", r.Code, r.Log)
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 || len(runs[0].Annotations) != 1 {
		t.Fatalf("check runs %+v", runs)
	}
	a := runs[0].Annotations[0]
	xml, err := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures-junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(` file="` + regexp.QuoteMeta(a.Path) + `" line="` + strconv.Itoa(a.StartLine) + `"`)
	if !strings.HasPrefix(a.Path, "corpus/") || !want.Match(xml) {
		t.Errorf("no testcase placed at the annotation's %s:%d:\n%s", a.Path, a.StartLine, xml)
	}
	if strings.Contains(string(xml), w.Dir) {
		t.Errorf("the JUnit report names the workspace's absolute path:\n%s", xml)
	}

	w.Env["INPUT_JUNIT-STRICT"] = "true"
	if r := w.Run(t, inProcess); r.Code != 1 || r.Outputs["junit-path"] != "drp2-fixtures-junit.xml" {
		t.Fatalf("exit %d, outputs %v\n%s", r.Code, r.Outputs, r.Log)
	}
	if xml, _ := os.ReadFile(filepath.Join(w.Dir, "drp2-fixtures-junit.xml")); strings.Contains(string(xml), ` file="`) || strings.Contains(string(xml), ` line="`) {
		t.Errorf("junit-strict: true placed testcases:\n%s", xml)
	}

	w.Env["INPUT_JUNIT-STRICT"] = "yes"
	if r := w.Run(t, inProcess); r.Code != ExitUsage || !strings.Contains(r.Log, `input junit-strict: "yes" is not one of true, false`) {
		t.Errorf("junit-strict: yes: exit %d\n%s", r.Code, r.Log)
	}
}
