package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/internal/manifest"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/report/explain"
	"github.com/drp2/drp2-fixtures/report/jsonout"
)

var frozen = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func execute(t *testing.T, dir string, req RunRequest) *Outcome {
	t.Helper()
	r, err := Resolve(Env{WorkDir: dir, Now: func() time.Time { return frozen }}, req)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Execute(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// The JSON report carries the manifest comparison, the rule coverage and
// the verdict when the job asked for them, and none of them otherwise.
func TestJSONReportCarriesManifestCoverageAndVerdict(t *testing.T) {
	dir := testkit.Corpus(t, map[string]string{
		"fixtures/positive/ok.json": testkit.Fixture("ok", testkit.Success, testkit.Hello, testkit.Reply),
	})
	req := RunRequest{Source: Source{Spelling: FlagSpelling}, FailOn: DefaultFailOn}
	r, err := resolve(Env{WorkDir: dir, Now: func() time.Time { return frozen }}, job{noSemantics: true})
	if err != nil {
		t.Fatal(err)
	}
	o, err := Execute(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := r.buildManifest(o.Run)
	if err != nil {
		t.Fatal(err)
	}
	m.Frozen = true
	m.DRP2Version = "1.9" // a recorded version the corpus no longer declares
	var b bytes.Buffer
	if err := manifest.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "fixtures", manifestFile), b.Bytes(), 0o644)

	plain := execute(t, dir, req)
	with := req
	with.CheckClean, with.Coverage = true, true
	checked := execute(t, dir, with)
	if plain.Verdict.Failed || !checked.Verdict.Failed {
		t.Fatalf("verdicts: plain %+v, checked %+v", plain.Verdict, checked.Verdict)
	}
	if h := explain.Judgement(checked.Run).Headline; !strings.Contains(h, "breaks the freeze of fixtures/manifest.json") {
		t.Errorf("headline %q does not name the broken freeze", h)
	}
	decode := func(o *Outcome) map[string]json.RawMessage {
		var b bytes.Buffer
		if err := jsonout.Write(&b, o.Run); err != nil {
			t.Fatal(err)
		}
		doc := map[string]json.RawMessage{}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	if doc := decode(plain); doc["manifest"] != nil || doc["coverage"] != nil || doc["verdict"] == nil {
		t.Errorf("a plain run's report: manifest %s coverage %s verdict %s", doc["manifest"], doc["coverage"], doc["verdict"])
	}
	doc := decode(checked)
	var got struct {
		Manifest struct {
			Path       string `json:"path"`
			Frozen     bool   `json:"frozen"`
			Violations int    `json:"violations"`
		} `json:"manifest"`
		Coverage struct {
			Rules            []struct{ ID string } `json:"rules"`
			PositiveFixtures int                   `json:"positive_fixtures"`
		} `json:"coverage"`
		Verdict struct {
			Failed     bool   `json:"failed"`
			Conclusion string `json:"conclusion"`
		} `json:"verdict"`
	}
	raw, _ := json.Marshal(doc)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Manifest.Path != "fixtures/manifest.json" || !got.Manifest.Frozen || got.Manifest.Violations != 1 {
		t.Errorf("manifest: %+v", got.Manifest)
	}
	if len(got.Coverage.Rules) == 0 || got.Coverage.PositiveFixtures != 1 {
		t.Errorf("coverage: %d rules, %d positive fixtures", len(got.Coverage.Rules), got.Coverage.PositiveFixtures)
	}
	if !got.Verdict.Failed || got.Verdict.Conclusion != "failure" {
		t.Errorf("verdict: %+v", got.Verdict)
	}
	// The report's coverage is the document the coverage command prints,
	// the negative fixtures of each rule included.
	var alone, inReport bytes.Buffer
	if err := jsonout.WriteCoverage(&alone, checked.Coverage); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&inReport, doc["coverage"]); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, alone.Bytes()); err != nil {
		t.Fatal(err)
	}
	if compact.String() != inReport.String() || !strings.Contains(inReport.String(), `"negative_fixtures":[`) {
		t.Errorf("the report's coverage:\n%s\nthe coverage command's:\n%s", inReport.String(), compact.String())
	}
}
