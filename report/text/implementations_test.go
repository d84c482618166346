package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestImplementationsSection: the implementations come after the run's
// details and before the final line, best first, every line log-safe.
func TestImplementationsSection(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.WithImplementations(), Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	start := strings.Index(out, "Implementations (best first):")
	if start < 0 || start < strings.Index(out, "Run details:") || start > strings.LastIndex(out, "DRP2 conformance:") {
		t.Fatalf("section misplaced:\n%s", out)
	}
	section := out[start:strings.LastIndex(out, "\nDRP2 conformance:")]
	golden.Check(t, "implementations.txt", []byte(section))
	if strings.Index(section, "native-vk 2.0.1") > strings.Index(section, "./no-such-runtime") {
		t.Error("not best first")
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.ContainsAny(line, "\r\x00\x1b") || strings.HasPrefix(line, "::") {
			t.Errorf("unsafe line %q", line)
		}
	}
	b.Reset()
	if err := Write(&b, sample.Run(), Options{}); err != nil || strings.Contains(b.String(), "Implementations") {
		t.Errorf("a run without implementations: %v\n%s", err, b.String())
	}
}

// TestWebGPUSection: not-claimed fixtures are counted apart and not listed
// as failures, the adapter is named, and the Level 3 preview lists the
// readback that differs.
func TestWebGPUSection(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, sample.WithWebGPU(), Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"PART webgpu.js on node/swiftshader sha256:612b5aac828a [node adapters/webgpu/host.js --runtime webgpu.js]: passed 6 of 8 fixtures, failed 0, not claimed 2 (it performs only semantic_validation, capability_validation)",
		"adapter: google swiftshader, SwiftShader driver 5.0.0 (node 20.20.2, dawn (npm webgpu 0.6.2))",
		"Level 3 preview 1 of 2 readbacks equal to the reference",
		"2 readbacks compared, 1 agree, 1 differ",
		"positive/minimal_triangle.json readback 0: webgpu.js on node/swiftshader sha256:612b5aac828a: 4 bytes | webgpu.js on chromium/swiftshader sha256:612b5aac828a: 4 bytes, first differing byte 3 | fixture data: not comparable",
		"phase not reported; validation:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "missing_cmd.json: expected") {
		t.Errorf("a not-claimed fixture is listed as a failure:\n%s", out)
	}
}

// TestImagesSection: the Level 3 images, counted per implementation, each
// one that is not identical with the bound it exceeded, its measures and
// the images to look at, every line log-safe.
func TestImagesSection(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample.WithImages(), Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	start := strings.Index(out, "Level 3 images")
	if start < 0 {
		t.Fatalf("no images section:\n%s", out)
	}
	section := out[start:]
	section = section[:strings.Index(section, "\n\n")+1]
	golden.Check(t, "images.txt", []byte(section))
	if !strings.Contains(section, "positive/minimal_triangle.json readback 0: exceeded: max_channel_delta 1 > 0") {
		t.Errorf("the bound exceeded is not named:\n%s", section)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.ContainsAny(line, "\r\x00\x1b") || strings.HasPrefix(line, "::") {
			t.Errorf("unsafe line %q", line)
		}
	}
}
