package harness

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

const readbackFixture = "positive/compute_result_readback.json"

// imageCorpus is the embedded corpus with a Level 3 folder in memory that
// describes the 64 bytes of the fixture's readback as a 4x4 rgba8unorm
// image; written references land in it too.
type imageCorpus struct {
	read  ReadFunc
	files map[string][]byte
}

func newImageCorpus(read ReadFunc) *imageCorpus {
	return &imageCorpus{read: read, files: map[string][]byte{
		"level3/images/" + readbackFixture: []byte(`{"images": [{"readback": 0, "width": 4, "height": 4, "format": "rgba8unorm"}]}`),
	}}
}

func (c *imageCorpus) Read(rel string) ([]byte, error) {
	if b, ok := c.files[rel]; ok {
		return b, nil
	}
	if strings.HasPrefix(rel, "level3/") {
		return nil, fmt.Errorf("open %s: %w", rel, fs.ErrNotExist)
	}
	return c.read(rel)
}

func (c *imageCorpus) options(update bool) ImageOptions {
	o := ImageOptions{}
	if update {
		o.WriteRef = func(rel string, data []byte) error {
			c.files[rel] = bytes.Clone(data)
			return nil
		}
	}
	return o
}

// images runs the fake implementation with faults over the fixture and
// checks its images.
func (c *imageCorpus) images(t *testing.T, faults string, repeat int, update bool) []model.ImageCheck {
	t.Helper()
	base, _ := embeddedRun(t, "compute_result_readback")
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("executes,name:webgpu-node,adapter:Google/SwiftShader," + faults), Repeat: repeat}, base, c.Read)
	if err := CheckImages(c.options(update), impls, c.Read); err != nil {
		t.Fatal(err)
	}
	if len(impls[0].Images) != 1 || !impls[0].Results[0].Passed {
		t.Fatalf("%+v", impls[0])
	}
	return impls[0].Images
}

// TestImagesOfAFakeRuntime: a runtime's readback checked as an image end
// to end: no reference, one written on request, the same image identical
// to it, one channel off by one exceeding the exact default and within a
// tolerance of 1.
func TestImagesOfAFakeRuntime(t *testing.T) {
	_, read := embeddedRun(t, "compute_result_readback")
	c := newImageCorpus(read)
	if got := c.images(t, "", 0, false)[0]; got.Verdict != model.ImageMissing || got.PlatformKey != "google-swiftshader" {
		t.Fatalf("no reference: %+v", got)
	}
	ref := "level3/refs/webgpu-node/google-swiftshader/positive/compute_result_readback/0.png"
	if got := c.images(t, "", 0, true)[0]; got.Updated != ref || c.files[ref] == nil {
		t.Fatalf("update: %+v", got)
	}
	if got := c.images(t, "", 0, false)[0]; got.Verdict != model.ImageIdentical || got.Reference != ref {
		t.Errorf("again: %+v", got)
	}
	if got := c.images(t, "bump:compute_result_readback", 0, false)[0]; got.Verdict != model.ImageExceeded || got.Exceeded != "max_channel_delta 1 > 0" {
		t.Errorf("off by one: %+v", got)
	}
	c.files["level3/tolerances.json"] = []byte(`{"tolerances": [{"backend": "webgpu-node", "max_channel_delta": 1}]}`)
	if got := c.images(t, "bump:compute_result_readback", 0, false)[0]; got.Verdict != model.ImageWithin {
		t.Errorf("within 1: %+v", got)
	}
}

// TestRepeatFindsNondeterminism: a fixture whose readback differs from
// one answer to the next is flagged, and its image is never written as a
// reference; a steady one repeated is checked as usual.
func TestRepeatFindsNondeterminism(t *testing.T) {
	_, read := embeddedRun(t, "compute_result_readback")
	c := newImageCorpus(read)
	got := c.images(t, "flicker:compute_result_readback", 3, true)[0]
	if got.Verdict != model.ImageNondeterministic || got.Attempts != 3 || len(c.files) != 1 {
		t.Errorf("flicker: %+v, files %d", got, len(c.files))
	}
	got = c.images(t, "", 3, true)[0]
	if got.Verdict != model.ImageMissing || got.Attempts != 3 || got.Updated == "" {
		t.Errorf("steady: %+v", got)
	}
}
