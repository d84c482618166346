package gate

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// A base commit's implementation results: a fixture whose bytes are the
// same in base and head takes the head's result (it is not sent again),
// and only a changed fixture is sent to the implementation, read from the
// base's corpus.
func TestBaseImplementationsSendOnlyChangedFixtures(t *testing.T) {
	py := testkit.PythonExample(t)
	same := testkit.Fixture("same", testkit.Success, testkit.Hello, testkit.Reply)
	baseX := testkit.Fixture("x", testkit.Success, testkit.Hello, testkit.Reply)
	dup := `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`
	headX := testkit.Fixture("x", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_DUPLICATE_ID", "command_index": 3}`,
		testkit.Hello, testkit.Reply, dup, dup)
	head := testkit.Corpus(t, map[string]string{"fixtures/positive/same.json": same, "fixtures/negative/x.json": headX})
	base := testkit.Corpus(t, map[string]string{"fixtures/positive/same.json": same, "fixtures/negative/x.json": baseX})
	ho := execute(t, head, RunRequest{FailOn: DefaultFailOn, Implementations: []string{py}})
	bo := execute(t, base, RunRequest{FailOn: DefaultFailOn})
	// Mark the head's result of the unchanged fixture: the base must take
	// it as it is, not ask the implementation again.
	him := &ho.Run.Implementations[0]
	for i := range him.Results {
		if him.Results[i].RelPath == "positive/same.json" {
			him.Results[i].Actual.Message = "the head's own result"
		}
	}
	r, err := Resolve(Env{WorkDir: head}, RunRequest{Implementations: []string{py}})
	if err != nil {
		t.Fatal(err)
	}
	corpus := fstest.MapFS{"positive/same.json": {Data: []byte(same)}, "negative/x.json": {Data: []byte(baseX)}}
	impls, err := r.baseImplementations(context.Background(), bo.Run, ho.Run, corpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) != 1 || len(impls[0].Results) != 2 {
		t.Fatalf("%+v", impls)
	}
	got := map[string]string{}
	for _, res := range impls[0].Results {
		got[res.RelPath] = res.Actual.Message
		if !res.Passed {
			t.Errorf("base %s: the example failed it: %+v", res.RelPath, res.Actual)
		}
	}
	if got["positive/same.json"] != "the head's own result" || strings.Contains(got["negative/x.json"], "head") {
		t.Errorf("base results: %q", got)
	}
	if impls[0].Name != "python-example" {
		t.Errorf("the base implementation: %q", impls[0].Label())
	}
}
