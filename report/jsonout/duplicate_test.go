package jsonout

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// A report with a key twice is refused with its place, not read by the
// copy the decoder happens to keep: merge and --baseline read reports
// another job (or a pull request) wrote.
func TestReadRefusesDuplicateKeys(t *testing.T) {
	run := &model.Run{CorpusRoot: "c", Results: []model.Result{{Path: "c/positive/a.json", RelPath: "positive/a.json", Folder: "positive", Name: "a",
		Class: model.ClassPositive, Expected: model.Expected{Outcome: "success"}, Actual: model.Actual{Outcome: model.Success}, Passed: true}}}
	run.Summary = model.Summarize(1, run.Results, nil)
	var b bytes.Buffer
	if err := Write(&b, run); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bytes.NewReader(b.Bytes())); err != nil {
		t.Fatalf("the report itself: %v", err)
	}
	doubled := strings.Replace(b.String(), `"passed": true`, `"passed": true, "passed": false`, 1)
	if doubled == b.String() {
		t.Fatalf("no passed member in:\n%s", b.String())
	}
	_, err := Read(strings.NewReader(doubled))
	if err == nil || !strings.Contains(err.Error(), `the key "passed" appears twice`) || !strings.Contains(err.Error(), "line ") {
		t.Errorf("err = %v", err)
	}
}
