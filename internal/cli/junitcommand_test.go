package cli

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// A fixture's file name is the pull request's to choose, line breaks
// included; test-report actions print a JUnit file's text into the
// Actions log, where a line starting "::" is a workflow command. No text
// or attribute of the JUnit report may start a line with one, nor hold a
// legacy "##[" command, whatever the corpus is named.
func TestJUnitNamesForgeNoWorkflowCommand(t *testing.T) {
	forged := "x\n::error file=forged.json::all good\r::warning::x\n  ::notice::y\n##[error]z"
	files := testkit.Merge(passing, map[string]string{
		// A mismatch, a corpus error, and a finding (the class of its
		// folder) under names that try each line break.
		"fixtures/negative/" + forged + ".json":  testkit.Fixture(forged, `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 1}`, testkit.Hello, testkit.Reply),
		"fixtures/positive/" + forged + "b.json": `{"name": `,
		"fixtures/positive/" + forged + "c.json": testkit.Fixture(forged, `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_USAGE", "command_index": 1}`, testkit.Hello, testkit.Reply),
	})
	dir := testkit.Corpus(t, files)
	code, _, stderr := run(t, dir, "run", "--junit", "out.xml")
	if code != ExitMismatch {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("all good")) {
		t.Fatalf("the forged name is not in the report:\n%s", data)
	}
	for _, text := range xmlTexts(t, data) {
		for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") || strings.Contains(line, "##[") {
				t.Errorf("a line of the JUnit report runs as a workflow command: %q", line)
			}
		}
	}
}

// xmlTexts are the decoded character data and attribute values of doc,
// what a consumer of the XML prints.
func xmlTexts(t *testing.T, doc []byte) []string {
	t.Helper()
	var texts []string
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return texts
		}
		if err != nil {
			t.Fatalf("the JUnit report does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.CharData:
			texts = append(texts, string(tok))
		case xml.StartElement:
			for _, a := range tok.Attr {
				texts = append(texts, a.Value)
			}
		}
	}
}
