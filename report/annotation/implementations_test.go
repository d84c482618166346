package annotation

import (
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

func TestBuildImplementation(t *testing.T) {
	run := sample.WithImplementations()
	hostile := &run.Implementations[1]
	anns := BuildImplementation(run, hostile)
	if len(anns) != hostile.Summary.Failed {
		t.Fatalf("%d annotations for %d failures", len(anns), hostile.Summary.Failed)
	}
	for _, a := range anns {
		if a.Level != LevelFailure || a.StartLine != 3 || !strings.HasPrefix(a.Title, "DRP2 ") || strings.ContainsAny(a.Title, "\r\n") {
			t.Errorf("%+v", a)
		}
	}
	if !strings.Contains(anns[0].Title, "no verdict") || !strings.HasPrefix(anns[0].Message, "it exited (status 1)") {
		t.Errorf("harness error: %q / %q", anns[0].Title, anns[0].Message)
	}
	native := BuildImplementation(run, &run.Implementations[2])
	if len(native) != 2 || !strings.HasPrefix(native[1].Message, "Level 2: reply 1 of 1") || !strings.Contains(native[1].Title, "native-vk 2.0.1: fixture mismatch (positive): texture_upload") {
		t.Errorf("%+v", native)
	}
	if BuildImplementation(nil, nil) != nil {
		t.Error("nil run")
	}
}

// TestNotClaimedIsNoAnnotation: fixtures of a phase the implementation does
// not perform get no annotation; its one failure does.
func TestNotClaimedIsNoAnnotation(t *testing.T) {
	run := sample.WithWebGPU()
	chromium := &run.Implementations[len(run.Implementations)-1]
	anns := BuildImplementation(run, chromium)
	if chromium.Summary.NotClaimed != 2 || len(anns) != 1 || !strings.Contains(anns[0].Title, "destroy_twice") {
		t.Errorf("%d not claimed, annotations %+v", chromium.Summary.NotClaimed, anns)
	}
}

// TestImplementationAnnotationsOnlyFailTheRun: of an implementation's
// results its expectations cover, only the failure no entry excuses is a
// failure annotation; an unexpected pass is a notice; known failures,
// flaky fixtures and skipped ones have none.
func TestImplementationAnnotationsOnlyFailTheRun(t *testing.T) {
	run := sample.WithExpectations()
	var levels []string
	for _, a := range BuildImplementation(run, &run.Implementations[0]) {
		levels = append(levels, string(a.Level)+" "+a.Path)
	}
	want := []string{"notice fixtures/positive/minimal_triangle.json", "failure fixtures/negative_schema/missing_cmd.json"}
	if strings.Join(levels, "\n") != strings.Join(want, "\n") {
		t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(levels, "\n"), strings.Join(want, "\n"))
	}
}

// TestImageAnnotations: under fail-on level3 each failing image is a
// failure on its fixture titled with the bound exceeded; otherwise Level 3
// is information and annotates nothing.
func TestImageAnnotations(t *testing.T) {
	run := sample.WithImages()
	node := &run.Implementations[len(run.Implementations)-2]
	before := len(BuildImplementation(run, node))
	run.Judgement = &model.Judgement{Failed: true, FailOn: "mismatch,level3"}
	anns := BuildImplementation(run, node)
	if len(anns) != before+1 {
		t.Fatalf("%d annotations, want %d", len(anns), before+1)
	}
	a := anns[len(anns)-1]
	if a.Level != LevelFailure || a.Path != "fixtures/positive/minimal_triangle.json" ||
		a.Title != "DRP2 webgpu.js on node/swiftshader sha256:612b5aac828a: Level 3 image, readback 0: max_channel_delta 1 > 0" ||
		!strings.Contains(a.Message, "diff webgpu.js-on-node-swiftshader/google-swiftshader/positive/minimal_triangle/0.diff.png") {
		t.Errorf("%+v", a)
	}
	chromium := BuildImplementation(run, &run.Implementations[len(run.Implementations)-1])
	for _, a := range chromium {
		if strings.ContainsAny(a.Title, "\r\n\x00\x1b") {
			t.Errorf("unsafe title %q", a.Title)
		}
	}
}
