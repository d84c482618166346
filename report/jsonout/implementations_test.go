package jsonout

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

func TestImplementationsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.WithImplementations()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "implementations.json", b.Bytes())
}

// TestImagesGolden: the Level 3 image checks, each verdict's members.
func TestImagesGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.WithImages()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "images.json", b.Bytes())
}

// TestReadWriteRoundTrip: a report read back and written again is the same
// report, byte for byte, with and without implementations.
func TestReadWriteRoundTrip(t *testing.T) {
	for name, run := range map[string]*model.Run{"plain": sample.Run(), "implementations": sample.WithImplementations(),
		"expectations": sample.WithExpectations(), "images": sample.WithImages()} {
		var first, second bytes.Buffer
		if err := Write(&first, run); err != nil {
			t.Fatal(err)
		}
		back, err := Read(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Write(&second, back); err != nil {
			t.Fatal(err)
		}
		// Compared as JSON values: invalid UTF-8 is written as \ufffd the
		// first time and as the character itself the second.
		var x, y any
		if err := json.Unmarshal(first.Bytes(), &x); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(second.Bytes(), &y); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s: the report changed on a round trip", name)
		}
		if len(back.Implementations) != len(run.Implementations) {
			t.Errorf("%s: %d implementations back", name, len(back.Implementations))
		}
	}
}

func TestReadRejects(t *testing.T) {
	for in, want := range map[string]string{
		`[]`:                                 "not a drp2-fixtures JSON report",
		`{"summary":{}}`:                     `no "results" array`,
		`{"results":[{"fixture_path":"x"}]}`: "no corpus_path",
		`{"results":[],"implementations":[{"results":[{"fixture_path":"y"}]}]}`: "implementation 0, result 0",
	} {
		if _, err := Read(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// TestHugeExpectedIndex: an expected command index too large for an int is
// written as the fixture gives it, not as the largest int, and reads back
// as the runner read it; a value that is no index is refused on reading.
func TestHugeExpectedIndex(t *testing.T) {
	maxInt := int(^uint(0) >> 1)
	run := sample.Run()
	e := &run.Results[0].Expected
	e.CommandIndex, e.BigCommandIndex = &maxInt, "10000000000000000000"
	var b bytes.Buffer
	if err := Write(&b, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"expected_command_index": 10000000000000000000,`) {
		t.Fatalf("the report does not give the index as the fixture does:\n%s", b.String())
	}
	back, err := Read(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Results[0].Expected; got.CommandIndex == nil || *got.CommandIndex != maxInt || got.BigCommandIndex != e.BigCommandIndex {
		t.Errorf("read back as %+v, want the largest int and %s", got, e.BigCommandIndex)
	}
	bad := strings.Replace(b.String(), "10000000000000000000", "-3", 1)
	if _, err := Read(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "expected_command_index -3 is not a command index") {
		t.Errorf("a negative index read back: %v", err)
	}
}

// TestExpectationsRoundTrip: the expectations of every result and its
// attempts are written and read back (TestReadWriteRoundTrip), so a
// merged report is judged as the run that wrote it.
func TestExpectationsRoundTrip(t *testing.T) {
	run := sample.WithExpectations()
	var first bytes.Buffer
	if err := Write(&first, run); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "expectations.json", first.Bytes())
	back, err := Read(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got, want := back.Implementations[0].Summary, run.Implementations[0].Summary
	if got.KnownFailures != want.KnownFailures || got.Flaky != want.Flaky || got.UnexpectedPasses != want.UnexpectedPasses ||
		got.Skipped != want.Skipped || got.Unexcused() != 1 {
		t.Errorf("read back %+v, want %+v", got, want)
	}
}
