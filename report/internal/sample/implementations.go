package sample

import (
	"fmt"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// WithImplementations returns the sample run with three implementations
// run through its fixtures by the runtime harness: one that fails a
// verdict and a readback reply, one with hostile text in everything it
// says and a crash, and one that could not be started. They are given
// worst first, so that a report that ranks them best first must reorder.
func WithImplementations() *model.Run {
	run := Run()
	var fixtures []model.Result
	for _, r := range run.Results {
		if !r.IsCorpusError() {
			fixtures = append(fixtures, r)
		}
	}
	// judged answers every fixture as it expects, except as told.
	judged := func(wrong map[string]model.Actual) []model.Result {
		var out []model.Result
		for _, f := range fixtures {
			r := model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class,
				Expected: f.Expected, Duration: time.Millisecond}
			if a, bad := wrong[f.RelPath]; bad {
				r.Actual = a
				r.Span = &model.Span{Line: 3, Column: 5, EndLine: 3, EndColumn: 30}
				r.Reason = f.Reason
			} else {
				r.Passed = true
				r.Actual = model.Actual{Outcome: model.Outcome(f.Expected.Outcome), Phase: model.Phase(f.Expected.Phase),
					Code: f.Expected.Code, CommandIndex: f.Expected.CommandIndex}
			}
			out = append(out, r)
		}
		return out
	}
	broken := model.Implementation{Command: "./no-such-runtime --adapter",
		Error: "handshake: it exited (status 127) while the harness was reading its answer", Stderr: "./no-such-runtime: not found\n"}
	for _, f := range fixtures {
		broken.Results = append(broken.Results, model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name,
			Class: f.Class, Expected: f.Expected,
			Actual: model.Actual{Outcome: model.HarnessError, Message: "not run: the implementation could not be started: " + broken.Error}})
	}
	hostile := model.Implementation{Command: "python3 " + Hostile, Name: Hostile, Version: Hostile,
		DRP2Versions: []string{"2.0"}, Restarts: 1, Stderr: "Traceback (most recent call last):\n" + Hostile + "\n",
		Results: judged(map[string]model.Actual{
			"negative/draw_outside_pass.json": {Outcome: model.HarnessError, Message: "it exited (status 1) while the harness was reading its answer"},
			"positive/minimal_triangle.json": {Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_" + Hostile,
				CommandIndex: intp(2), Message: Hostile},
		})}
	hostile.Results[0].Diagnostics = []model.Diagnostic{{Source: "stderr", Message: Hostile}}
	native := model.Implementation{Command: "./bin/native-runtime --drp2-adapter", Name: "native-vk", Version: "2.0.1",
		DRP2Versions: []string{"2.0"}, Executes: true,
		Results: judged(map[string]model.Actual{
			"negative/destroy_twice.json": {Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_STATE", CommandIndex: intp(4)},
			"positive/texture_upload.json": {Outcome: model.Success, Rule: "CONFORMANCE.md Level 2 rule 2",
				Message: "Level 2: reply 1 of 1 (for the QueueSubmit at command 7), readback 0: data holds 12 bytes; size is 16"},
		}),
		Level2: map[string]bool{"positive/minimal_triangle.json": true, "positive/texture_upload.json": false}}
	run.Implementations = []model.Implementation{broken, hostile, native}
	for i := range run.Implementations {
		im := &run.Implementations[i]
		im.Summary = model.Summarize(run.Summary.Discovered, im.Results, nil)
		im.Duration = time.Duration(i+1) * 10 * time.Millisecond
	}
	return run
}

// ManyImplementations returns a large run with n implementations, each
// failing a different share of the fixtures, for the size caps.
func ManyImplementations(fixtures, n int) *model.Run {
	run := Large(fixtures)
	for k := 0; k < n; k++ {
		im := model.Implementation{Command: fmt.Sprintf("./runtime-%02d", k), Name: fmt.Sprintf("runtime-%02d %s", k, Hostile), Version: "1.0"}
		for i, f := range run.Results {
			r := model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class, Expected: f.Expected,
				Actual: model.Actual{Outcome: model.Success}, Passed: i%(k+2) != 0}
			if !r.Passed {
				r.Actual = model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_USAGE", Message: Hostile}
			}
			im.Results = append(im.Results, r)
		}
		im.Summary = model.Summarize(fixtures, im.Results, nil)
		run.Implementations = append(run.Implementations, im)
	}
	return run
}

// WithWebGPU is WithImplementations plus two runs of a WebGPU runtime
// behind the protocol 2 host, on two platforms: they perform no schema
// validation (the schema negatives are not claimed), report no phase, name
// their adapter, and return readback bytes that the fixture's own data and
// each other agree with or not.
func WithWebGPU() *model.Run {
	run := WithImplementations()
	run.FixtureReadbacks = map[string][][]byte{"positive/texture_upload.json": {{1, 2, 3, 4}}, "positive/minimal_triangle.json": {nil}}
	for k, platform := range []string{"node 20.20.2, dawn (npm webgpu 0.6.2)", "Chrome 156.0.8078.114 (headless)"} {
		im := model.Implementation{Command: "node adapters/webgpu/host.js --runtime webgpu.js", Name: "webgpu.js on node/swiftshader",
			Version: "sha256:612b5aac828a", DRP2Versions: []string{"2.0"}, Executes: true, Protocol: 2,
			Phases:  []string{"semantic_validation", "capability_validation"},
			Adapter: &model.GPUAdapter{Vendor: "google", Architecture: "swiftshader", Driver: "SwiftShader driver 5.0.0", Platform: platform},
			Level2:  map[string]bool{}, Readbacks: map[string][][]byte{}}
		if k == 1 {
			im.Command += " --browser chromium"
			im.Name = "webgpu.js on chromium/swiftshader"
			im.Adapter.Driver = ""
		}
		for _, f := range run.Results {
			if f.IsCorpusError() {
				continue
			}
			r := model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class, Expected: f.Expected}
			switch {
			case f.Class == model.ClassSchemaNegative:
				r.Actual = model.Actual{Outcome: model.NotClaimed, Message: "not claimed: the implementation does not perform schema_validation"}
			case f.Class == model.ClassPositive:
				r.Passed = true
				r.Actual = model.Actual{Outcome: model.Success}
				im.Level2[f.RelPath] = true
			case k == 1 && f.RelPath == "negative/destroy_twice.json":
				r.Actual = model.Actual{Outcome: model.Error, Code: "DRP2_ERR_INTERNAL",
					Message: "phase not reported; validation: [Buffer \"b\"] used in submit while destroyed.\n - While calling [Queue].Submit"}
			default:
				r.Passed = true
				r.Actual = model.Actual{Outcome: model.Error, Code: f.Expected.Code, CommandIndex: f.Expected.CommandIndex,
					Message: "phase not reported; command 4 DestroyBuffer: buffer 1 has already been destroyed"}
			}
			im.Results = append(im.Results, r)
		}
		im.Readbacks["positive/texture_upload.json"] = [][]byte{{1, 2, 3, 4}}
		im.Readbacks["positive/minimal_triangle.json"] = [][]byte{{0, 0, 0, byte(255 * k)}}
		im.Summary = model.Summarize(run.Summary.Discovered, im.Results, nil)
		run.Implementations = append(run.Implementations, im)
	}
	return run
}

// WithExpectations returns the sample run with one implementation whose
// expectations cover its results: a known failure, a flaky pass after a
// retry, a listed flaky fixture that failed, an unexpected pass, a
// skipped fixture and one failure no entry excuses; the built-in
// validator has an unexpected pass of its own, and the run wrote an
// updated expectations file. Entries and reasons carry hostile text.
func WithExpectations() *model.Run {
	run := Run()
	entry := func(e model.Expectation, line int, reason string) *model.Listing {
		return &model.Listing{Expect: e, Reason: reason, Entry: fmt.Sprintf("drp2/expect %s.txt:%d", Hostile, line)}
	}
	im := model.Implementation{Command: "./bin/rt --drp2-adapter", Name: "rt", Version: "1.0",
		Adapter: &model.GPUAdapter{Vendor: "Google", Device: "SwiftShader"}}
	n := 0
	for _, f := range run.Results {
		if f.IsCorpusError() {
			continue
		}
		r := model.Result{Path: f.Path, RelPath: f.RelPath, Folder: f.Folder, Name: f.Name, Class: f.Class,
			Expected: f.Expected, Duration: time.Millisecond, Passed: true,
			Actual: model.Actual{Outcome: model.Outcome(f.Expected.Outcome), Phase: model.Phase(f.Expected.Phase),
				Code: f.Expected.Code, CommandIndex: f.Expected.CommandIndex}}
		wrong := model.Actual{Outcome: model.Error, Phase: model.PhaseSemantic, Code: "DRP2_ERR_INVALID_ID", CommandIndex: intp(1)}
		if f.Class != model.ClassPositive {
			wrong = model.Actual{Outcome: model.Success}
		}
		switch n {
		case 0: // a known failure
			r.Passed, r.Actual, r.Listing = false, wrong, entry(model.ExpectFail, 3, "bug 12 "+Hostile)
			r.KnownFailure = r.Listing.Reason
		case 1: // flaky: failed, then passed on a retry
			r.Attempts = []model.Actual{wrong, r.Actual}
		case 2: // listed flaky, failed
			r.Passed, r.Actual, r.Listing = false, wrong, entry(model.ExpectFlaky, 4, "races")
		case 3: // an unexpected pass
			r.Listing = entry(model.ExpectFail, 5, "fixed?")
		case 4: // skipped
			r.Passed, r.Listing = false, entry(model.ExpectSkip, 6, "")
			r.Actual = model.Actual{Outcome: model.Skipped, Message: "skipped: an expectations entry keeps it from this implementation"}
		case 5: // a new failure
			r.Passed, r.Actual = false, wrong
		}
		if !r.Passed && r.Actual.Outcome != model.Skipped {
			r.Span = &model.Span{Line: 3, Column: 5, EndLine: 3, EndColumn: 30}
		}
		im.Results = append(im.Results, r)
		n++
	}
	im.Summary = model.Summarize(run.Summary.Discovered, im.Results, nil)
	run.Implementations = []model.Implementation{im}
	for i := range run.Results {
		if r := &run.Results[i]; r.Passed {
			r.Listing = entry(model.ExpectFail, 9, "validator bug")
			break
		}
	}
	run.Summary = model.Summarize(run.Summary.Discovered, run.Results, run.Findings)
	run.ExpectationsUpdate = &model.ExpectationsUpdate{File: "drp2/expect " + Hostile + ".txt",
		Diff: "--- e.txt\n+++ e.txt\n@@ -1,2 +1,2 @@\n # ```" + Hostile + "\n-rt negative/a.json fail\n+rt negative/b.json fail # new\n"}
	return run
}

// WithImages is WithWebGPU with Level 3 image checks: on node, one image
// off by one under an exact tolerance and one identical; on chromium, one
// without a reference and one whose description does not fit its
// readback.
func WithImages() *model.Run {
	run := WithWebGPU()
	node, chromium := &run.Implementations[len(run.Implementations)-2], &run.Implementations[len(run.Implementations)-1]
	base := "webgpu.js-on-node-swiftshader/google-swiftshader/positive/minimal_triangle/0"
	node.Images = []model.ImageCheck{
		{Path: "positive/minimal_triangle.json", Readback: 0, Backend: "webgpu.js-on-node-swiftshader", PlatformKey: "google-swiftshader",
			Verdict: model.ImageExceeded, Exceeded: "max_channel_delta 1 > 0", Tolerance: "exact", Width: 64, Height: 64, Format: "rgba8unorm",
			RefWidth: 64, RefHeight: 64, RefFormat: "rgba8unorm", Pixels: 4096, DifferentPixels: 3, ChangedPixels: 3, ChangedFraction: 3.0 / 4096,
			MaxChannelDelta: 1, Reference: "level3/refs/webgpu.js-on-node-swiftshader/any/positive/minimal_triangle/0.png",
			Actual: base + ".actual.png", Diff: base + ".diff.png", Attempts: 1},
		{Path: "positive/texture_upload.json", Readback: 0, Backend: "webgpu.js-on-node-swiftshader", PlatformKey: "google-swiftshader",
			Verdict: model.ImageIdentical, Tolerance: `{"max_channel_delta":1}`, Width: 1, Height: 1, Format: "r32float",
			RefWidth: 1, RefHeight: 1, RefFormat: "r32float", Pixels: 1, Attempts: 1,
			Reference: "level3/refs/webgpu.js-on-node-swiftshader/google-swiftshader/positive/texture_upload/0.exact.json"},
	}
	chromium.Images = []model.ImageCheck{
		{Path: "positive/minimal_triangle.json", Readback: 0, Backend: "webgpu.js-on-chromium-swiftshader", PlatformKey: "google-swiftshader",
			Verdict: model.ImageMissing, Tolerance: "exact", Width: 64, Height: 64, Format: "rgba8unorm", Attempts: 1,
			Against: node.Label(), AgainstVerdict: model.ImageExceeded, AgainstExceeded: "changed_pixels 12 > 10",
			Actual: "webgpu.js-on-chromium-swiftshader/google-swiftshader/positive/minimal_triangle/0.actual.png"},
		{Path: "positive/texture_upload.json", Readback: 0, Backend: "webgpu.js-on-chromium-swiftshader", PlatformKey: "google-swiftshader",
			Verdict: model.ImageUndecodable, Format: "rgba8unorm", Attempts: 1,
			Error: "level3/images/positive/texture_upload.json: images[0].data: 4 bytes are too few for 2 rows of bytes_per_row 4 (8 bytes, the last row's padding not needed)" + Hostile},
	}
	return run
}

// FailingImages is WithWebGPU over a corpus at fixtures/ whose node and
// chromium implementations each render images, n of them failing Level 3
// in turn: an 8-bit image one unit off under an exact tolerance, one that
// differed between attempts, a float image past its ULP bound, one of the
// wrong size, one without a reference, and one whose readback is too
// short (with hostile text), beside two identical ones. The third
// failure's fixture path holds markup and a table's bar.
func FailingImages(n int) *model.Run {
	run := WithWebGPU()
	run.CorpusRoot = "fixtures"
	impls := run.Implementations[len(run.Implementations)-2:]
	backends := []string{"webgpu.js-on-node-swiftshader", "webgpu.js-on-chromium-swiftshader"}
	names := []string{"render_triangle", "render_blend_alpha", "render_depth", "render_scissor", "render_srgb", "render_texture"}
	for k := range impls {
		impls[k].Images = append(impls[k].Images, identicalImage(backends[k], "positive/render_clear.json"))
	}
	for i := range n {
		k := i % 2
		name := names[i%len(names)]
		if i >= len(names) {
			name += fmt.Sprintf("_%03d", i)
		}
		if i == 2 {
			name = "render_<b>x</b>|`y`"
		}
		impls[k].Images = append(impls[k].Images, failingImage(i, backends[k], "positive/"+name+".json"))
	}
	for k := range impls {
		impls[k].Images = append(impls[k].Images, identicalImage(backends[k], "positive/render_viewports.json"))
		// Images are of fixtures whose replies passed Level 2.
		for _, c := range impls[k].Images {
			impls[k].Results = append(impls[k].Results, model.Result{Path: run.CorpusRoot + "/" + c.Path, RelPath: c.Path, Folder: "positive",
				Name: strings.TrimSuffix(strings.TrimPrefix(c.Path, "positive/"), ".json"), Class: model.ClassPositive,
				Expected: model.Expected{Outcome: "success"}, Actual: model.Actual{Outcome: model.Success}, Passed: true})
			impls[k].Level2[c.Path] = true
		}
		impls[k].Summary = model.Summarize(run.Summary.Discovered+len(impls[k].Images), impls[k].Results, nil)
	}
	// The second runtime's first and last images compared with the
	// first's (Level 3 across runtimes): one the same, one not.
	second := impls[1].Images
	second[0].Against, second[0].AgainstVerdict = impls[0].Label(), model.ImageIdentical
	last := &second[len(second)-1]
	last.Against, last.AgainstVerdict, last.AgainstExceeded = impls[0].Label(), model.ImageExceeded, "max_channel_delta 2 > 0"
	return run
}

func identicalImage(backend, path string) model.ImageCheck {
	return model.ImageCheck{Path: path, Backend: backend, PlatformKey: "google-swiftshader", Verdict: model.ImageIdentical,
		Tolerance: "exact", Width: 64, Height: 64, Format: "rgba8unorm", RefWidth: 64, RefHeight: 64, RefFormat: "rgba8unorm",
		Pixels: 4096, Attempts: 1, Reference: "level3/refs/" + backend + "/any/" + strings.TrimSuffix(path, ".json") + "/0.png"}
}

// failingImage is the i-th failing image of FailingImages.
func failingImage(i int, backend, path string) model.ImageCheck {
	stem := backend + "/google-swiftshader/" + strings.TrimSuffix(path, ".json") + "/0"
	c := model.ImageCheck{Path: path, Backend: backend, PlatformKey: "google-swiftshader", Tolerance: "exact",
		Width: 64, Height: 64, Format: "rgba8unorm", RefWidth: 64, RefHeight: 64, RefFormat: "rgba8unorm", Attempts: 1,
		Reference: "level3/refs/" + backend + "/any/" + strings.TrimSuffix(path, ".json") + "/0.png",
		Actual:    stem + ".actual.png", Diff: stem + ".diff.png"}
	switch i % 6 {
	case 0:
		c.Verdict, c.Exceeded, c.Pixels, c.DifferentPixels, c.ChangedPixels, c.MaxChannelDelta = model.ImageExceeded, "max_channel_delta 1 > 0", 4096, 3, 3, 1
		c.ChangedFraction = 3.0 / 4096
	case 1:
		c.Verdict, c.Attempts, c.Reference, c.Diff = model.ImageNondeterministic, 3, "", ""
	case 2:
		c.Verdict, c.Exceeded, c.Format, c.RefFormat, c.Width, c.Height, c.RefWidth, c.RefHeight = model.ImageExceeded, "float_ulp 9 > 4", "r32float", "r32float", 16, 16, 16, 16
		c.Tolerance, c.Pixels, c.DifferentPixels, c.ChangedPixels, c.MaxAbs, c.MaxULP = `{"float_ulp":4}`, 256, 40, 12, 2.5e-6, 9
		c.ChangedFraction = 12.0 / 256
		c.Reference = strings.TrimSuffix(c.Reference, ".png") + ".exact.json"
	case 3:
		c.Verdict, c.Exceeded, c.RefWidth, c.RefHeight, c.Diff = model.ImageDimensions, "dimensions 64x64 != 64x32", 64, 32, ""
	case 4:
		c.Verdict, c.Reference, c.RefWidth, c.RefHeight, c.RefFormat, c.Diff = model.ImageMissing, "", 0, 0, "", ""
	default:
		c.Verdict, c.Width, c.Height, c.RefWidth, c.RefHeight, c.Actual, c.Diff = model.ImageUndecodable, 0, 0, 0, 0, "", ""
		c.Error = "level3/images/" + path + ": images[0].data: 4 bytes are too few for 2 rows of bytes_per_row 4 " + Hostile
	}
	return c
}
