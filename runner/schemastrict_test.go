package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
)

// TestEmbeddedSchemasStricterThanUpstream: the three places the embedded
// schemas refuse what the upstream ones accept are real (each probe passes
// the upstream schema phases and fails the embedded ones) and listed in
// docs/conformance.md, which says why, so that a corpus judged with the
// embedded schemas surprises no one.
func TestEmbeddedSchemasStricterThanUpstream(t *testing.T) {
	const foreign = `"AA*A"` // a character outside the base64 alphabet
	buffer := `{"cmd": "CreateBuffer", "id": 1, "size": 4, "usage": ["COPY_DST", "MAP_READ"]}`
	probes := map[string]struct {
		fixture, doc string
	}{
		"positive/write_buffer_foreign_base64.json": {
			testkit.Fixture("w", `{"outcome": "success"}`, testkit.Hello, testkit.Reply, buffer,
				`{"cmd": "WriteBuffer", "buffer_id": 1, "offset": 0, "size": 3, "data": `+foreign+`}`),
			"**Base64 alphabet in the embedded command schema.**"},
		"positive/reply_foreign_base64.json": {
			testkit.Fixture("r", `{"outcome": "success"}`, testkit.Hello, testkit.Reply, buffer,
				`{"cmd": "BeginCommandEncoder", "id": 2}`,
				`{"cmd": "FinishCommandEncoder", "encoder_id": 2, "command_buffer_id": 3}`,
				`{"cmd": "QueueSubmit", "command_buffer_ids": [3], "submission_id": 1, "readbacks": [{"buffer_id": 1, "offset": 0, "size": 4}]}`,
				`{"cmd": "QueueSubmitReply", "submission_id": 1, "readbacks": [{"buffer_id": 1, "offset": 0, "size": 4, "data": `+foreign+`}]}`),
			"**Reply data in the embedded command schema.**"},
		"positive/success_naming_a_code.json": {
			testkit.Fixture("s", `{"outcome": "success", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE"}`, testkit.Hello, testkit.Reply),
			"**A success that names a failure, in the embedded fixture schema.**"},
	}
	files := map[string]string{}
	for p, probe := range probes {
		files["fixtures/"+p] = probe.fixture
	}
	corpus := filepath.Join(testkit.Corpus(t, files), "fixtures")
	doc, err := os.ReadFile(filepath.Join("..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	embedded := byPath(runCorpus(t, Config{Corpus: corpus, CommandSchema: Embedded, FixtureSchema: Embedded}))
	for p, probe := range probes {
		r := embedded[p]
		if !r.IsCorpusError() && r.Actual.Phase != model.PhaseSchema {
			t.Errorf("%s: the embedded schemas accept it: %+v", p, r.Actual)
		}
		if !strings.Contains(string(doc), probe.doc) {
			t.Errorf("%s: docs/conformance.md does not list %s", p, probe.doc)
		}
	}
	root, err := filepath.Abs(upstreamRoot)
	if err != nil {
		t.Fatal(err)
	}
	command := filepath.Join(root, "schema", "drp_command.json")
	fixture := filepath.Join(root, "fixtures", "schema", "drp_fixture.schema.json")
	if _, err := os.Stat(command); err != nil {
		missingUpstream(t, "SKIPPED: the upstream DRP2 schemas are not at %s", upstreamRoot)
	}
	upstream := byPath(runCorpus(t, Config{Corpus: corpus, CommandSchema: command, FixtureSchema: fixture}))
	for p := range probes {
		if r := upstream[p]; r.IsCorpusError() || r.Actual.Phase == model.PhaseSchema {
			t.Errorf("%s: the upstream schemas refuse it too: %+v", p, r.Actual)
		}
	}
}
