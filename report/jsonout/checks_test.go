package jsonout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// A fixture path, rule or expected value is the pull request's: the
// manifest and coverage documents, printed by manifest check and coverage
// to an Actions log, carry no "##[" and decode to the same text.
func TestChecksAreSafeForALog(t *testing.T) {
	const evil = "##[stop-commands]x"
	m := &model.ManifestCheck{Path: evil, Changes: []model.ManifestChange{{Kind: "added", Path: "positive/" + evil + ".json",
		Expected: []string{"code: " + evil}, Description: "added"}}}
	c := &model.Coverage{Rules: []model.RuleCoverage{{ID: evil, NegativeFixtures: []string{evil}}}, NoRule: []string{evil}}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"manifest": func(b *bytes.Buffer) error { return WriteManifest(b, m) },
		"coverage": func(b *bytes.Buffer) error { return WriteCoverage(b, c) },
		"other":    func(b *bytes.Buffer) error { return Encode(b, map[string]string{"x": evil}) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "##[") {
			t.Errorf("%s: output carries ##[:\n%s", name, b.String())
		}
		var back any
		if err := json.Unmarshal(b.Bytes(), &back); err != nil || !strings.Contains(fmt.Sprint(back), evil) {
			t.Errorf("%s: the document does not decode to the text: %v\n%s", name, err, b.String())
		}
	}
}
