package level3

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/raster"
	"github.com/drp2/drp2-fixtures/model"
)

const fixture = "positive/render_square.json"

// corpus is a corpus's Level 3 files in memory, and what a run writes.
type corpus struct {
	files  map[string][]byte
	images map[string][]byte
}

func newCorpus(description string) *corpus {
	c := &corpus{files: map[string][]byte{}, images: map[string][]byte{}}
	if description != "" {
		c.files[descriptionPath(fixture)] = []byte(description)
	}
	return c
}

func (c *corpus) read(rel string) ([]byte, error) {
	if b, ok := c.files[rel]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("open %s: %w", rel, fs.ErrNotExist)
}

func (c *corpus) options(update bool) Options {
	o := Options{Read: c.read, WriteImage: func(rel string, data []byte) error {
		c.images[rel] = bytes.Clone(data)
		return nil
	}}
	if update {
		o.WriteRef = func(rel string, data []byte) error {
			c.files[rel] = bytes.Clone(data)
			return nil
		}
	}
	return o
}

// square is the readback of a 4x4 rgba8unorm target copied with rows of
// 256 bytes: a gradient, and the padding of the copy.
func square() []byte {
	data := make([]byte, 3*256+16)
	for y := range 4 {
		for x := range 4 {
			copy(data[y*256+x*4:], []byte{byte(40 * x), byte(40 * y), 200, 255})
		}
	}
	return data
}

const squareDescription = `{"images": [{"readback": 0, "width": 4, "height": 4, "bytes_per_row": 256, "format": "rgba8unorm"}]}`

// impl is an implementation on SwiftShader that passed the fixture with
// the given readback.
func impl(data []byte) *model.Implementation {
	return &model.Implementation{Name: "webgpu-node", Version: "1.0",
		Adapter: &model.GPUAdapter{Vendor: "Google", Device: "SwiftShader Device (Subzero)"},
		Results: []model.Result{{RelPath: fixture}}, Readbacks: map[string][][]byte{fixture: {data}}}
}

// putRef stores data's image as the reference under key.
func (c *corpus) putRef(t *testing.T, key string, data []byte) string {
	t.Helper()
	img, err := raster.Decode(raster.Description{Width: 4, Height: 4, BytesPerRow: 256, Format: raster.RGBA8Unorm}, data)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := raster.WritePNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	p := refBase("webgpu-node", key, fixture, 0) + ".png"
	c.files[p] = buf.Bytes()
	return p
}

func check(t *testing.T, c *corpus, im *model.Implementation, update bool) model.ImageCheck {
	t.Helper()
	if err := New(c.options(update)).Check(im, 1, nil); err != nil {
		t.Fatal(err)
	}
	if len(im.Images) != 1 {
		t.Fatalf("%d checks, want 1: %+v", len(im.Images), im.Images)
	}
	return im.Images[0]
}

func TestIdenticalPasses(t *testing.T) {
	c := newCorpus(squareDescription)
	ref := c.putRef(t, "any", square())
	got := check(t, c, impl(square()), false)
	if got.Verdict != model.ImageIdentical || got.Reference != ref || got.Width != 4 || got.Pixels != 16 || got.Tolerance != "exact" {
		t.Errorf("%+v", got)
	}
	if len(c.images) != 0 || got.Actual != "" {
		t.Errorf("an identical image wrote %v", slices.Sorted(maps.Keys(c.images)))
	}
	if got.PlatformKey != "google-swiftshader-device-subzero" || got.Backend != "webgpu-node" {
		t.Errorf("key %s/%s", got.Backend, got.PlatformKey)
	}
}

// TestOneUnit: one channel off by one passes under max_channel_delta 1
// and fails at 0, naming the bound.
func TestOneUnit(t *testing.T) {
	c := newCorpus(squareDescription)
	c.putRef(t, "any", square())
	off := square()
	off[256+4+1]++ // green of the pixel at (1, 1)
	got := check(t, c, impl(off), false)
	if got.Verdict != model.ImageExceeded || got.Exceeded != "max_channel_delta 1 > 0" || got.ChangedPixels != 1 || got.MaxChannelDelta != 1 {
		t.Errorf("exact: %+v", got)
	}
	if got.Exceeded != "max_channel_delta 1 > 0" {
		t.Errorf("failure %q", got.Exceeded)
	}
	base := "webgpu-node/google-swiftshader-device-subzero/positive/render_square/0"
	if got.Actual != base+".actual.png" || got.Diff != base+".diff.png" || c.images[got.Diff] == nil || c.images[got.Actual] == nil {
		t.Errorf("artifacts %q %q, written %v", got.Actual, got.Diff, slices.Sorted(maps.Keys(c.images)))
	}
	first := bytes.Clone(c.images[got.Diff])
	if again := check(t, c, impl(off), false); !bytes.Equal(first, c.images[again.Diff]) {
		t.Error("the diff image of the same images differs from run to run")
	}
	c.files[tolerancesPath] = []byte(`{"tolerances": [{"folder": "positive", "max_channel_delta": 1}]}`)
	got = check(t, c, impl(off), false)
	if got.Verdict != model.ImageWithin || got.Exceeded != "" || got.Tolerance != `{"max_channel_delta":1}` {
		t.Errorf("within 1: %+v", got)
	}
	if bytes.Equal(first, c.images[got.Diff]) {
		t.Error("the diff image within the tolerance is the one of the change beyond it")
	}
}

func TestToleranceMostSpecificWins(t *testing.T) {
	rules, err := parseTolerances([]byte(`{"tolerances": [
		{"max_channel_delta": 9},
		{"backend": "webgpu-node", "max_channel_delta": 8},
		{"folder": "positive", "max_channel_delta": 7},
		{"backend": "webgpu-node", "folder": "positive", "max_channel_delta": 6},
		{"fixture": "positive/render_square.json", "max_channel_delta": 5}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		backend, rel string
		want         int
	}{{"webgpu-node", fixture, 5}, {"webgpu-node", "positive/other.json", 6}, {"dawn", "positive/other.json", 7},
		{"webgpu-node", "negative/x.json", 8}, {"dawn", "negative/x.json", 9}} {
		if got := toleranceFor(rules, tc.backend, tc.rel).MaxChannelDelta; got != tc.want {
			t.Errorf("%s %s: max_channel_delta %d, want %d", tc.backend, tc.rel, got, tc.want)
		}
	}
}

func TestMissingReference(t *testing.T) {
	c := newCorpus(squareDescription)
	got := check(t, c, impl(square()), false)
	if got.Verdict != model.ImageMissing || got.Reference != "" || got.Actual == "" || got.Diff != "" {
		t.Errorf("%+v", got)
	}
	if len(c.files) != 1 {
		t.Errorf("a normal run wrote into the corpus: %v", slices.Sorted(maps.Keys(c.files)))
	}
}

// TestPlatformFallback: the most specific key that has a reference wins;
// without one, the vendor's, then any.
func TestPlatformFallback(t *testing.T) {
	c := newCorpus(squareDescription)
	other := square()
	other[0] = 7
	c.putRef(t, "any", other)
	vendor := c.putRef(t, "google", square())
	if got := check(t, c, impl(square()), false); got.Reference != vendor || got.Verdict != model.ImageIdentical {
		t.Errorf("vendor key: %+v", got)
	}
	exact := c.putRef(t, "google-swiftshader-device-subzero", other)
	if got := check(t, c, impl(square()), false); got.Reference != exact || got.Verdict != model.ImageExceeded {
		t.Errorf("device key: %+v", got)
	}
	im := impl(square())
	im.Adapter = nil
	if got := check(t, c, im, false); got.Reference != refBase("webgpu-node", "any", fixture, 0)+".png" || got.PlatformKey != "any" {
		t.Errorf("no adapter: %+v", got)
	}
	im = impl(square())
	if got := Keys(im, []string{"device", "vendor"}); strings.Join(got, " ") != "swiftshader-device-subzero-google swiftshader-device-subzero any" {
		t.Errorf("keys %v", got)
	}
}

// TestUpdateRefs: a run asked to writes the reference of its platform,
// and the next run finds its image identical; a normal run writes none.
func TestUpdateRefs(t *testing.T) {
	c := newCorpus(squareDescription)
	old := square()
	old[0] = 9
	c.putRef(t, "any", old)
	got := check(t, c, impl(square()), true)
	want := refBase("webgpu-node", "google-swiftshader-device-subzero", fixture, 0) + ".png"
	if got.Updated != want || c.files[want] == nil || got.Verdict != model.ImageExceeded || got.MaxChannelDelta != 9 {
		t.Fatalf("%+v", got)
	}
	written := bytes.Clone(c.files[want])
	got = check(t, c, impl(square()), false)
	if got.Verdict != model.ImageIdentical || got.Reference != want || got.Updated != "" {
		t.Errorf("re-run: %+v", got)
	}
	got = check(t, c, impl(square()), true)
	if got.Updated != "" || !bytes.Equal(written, c.files[want]) {
		t.Errorf("an identical image was written again: %+v", got)
	}
}

func TestNondeterministicNeverAReference(t *testing.T) {
	c := newCorpus(squareDescription)
	im := impl(square())
	if err := New(c.options(true)).Check(im, 3, Unstable{fixture: {0}}); err != nil {
		t.Fatal(err)
	}
	got := im.Images[0]
	if got.Verdict != model.ImageNondeterministic || got.Attempts != 3 || got.Updated != "" || len(c.files) != 1 {
		t.Errorf("%+v, corpus %v", got, slices.Sorted(maps.Keys(c.files)))
	}
}

// TestHostileInput: what a pull request writes in the Level 3 files is
// refused naming the file and the field, before anything is allocated,
// and never names a path outside the corpus.
func TestHostileInput(t *testing.T) {
	desc := descriptionPath(fixture)
	for _, tc := range []struct {
		file, content, want string
	}{
		{desc, `{"images": [{"readback": 0, "width": 100000, "height": 4, "format": "rgba8unorm"}]}`, desc + ": images[0].width: 100000 is not between 1 and 16384"},
		{desc, `{"images": [{"readback": 0, "width": 16384, "height": 16384, "format": "rgba8unorm"}]}`, desc + ": images[0].height: 16384 x 16384 is 268435456 pixels"},
		{desc, `{"images": [{"readback": 0, "width": 4, "height": 4, "bytes_per_row": 99999999, "format": "rgba8unorm"}]}`, desc + ": images[0].bytes_per_row: 99999999 is not between"},
		{desc, `{"images": [{"readback": -1, "width": 4, "height": 4, "format": "rgba8unorm"}]}`, desc + ": images[0].readback: -1 is not between 0 and 4096"},
		{desc, `{"images": [{"readback": 3, "width": 4, "height": 4, "format": "rgba8unorm"}]}`, desc + ": images[0].readback: 3 is past the fixture's 1 readbacks"},
		{desc, `{"images": [{"readback": 0, "width": 64, "height": 64, "format": "rgba8unorm"}]}`, desc + ": images[0].data: 784 bytes are too few"},
		{desc, `{"images": [{"readback": 0, "width": 4, "height": 4, "format": "rgba8unorm", "path": "../../etc"}]}`, desc + `: images[0]: json: unknown field "path"`},
		{desc, `{"images": [{"readback": 0, "width": 4, "height": 4, "format": "astc-4x4"}]}`, desc + `: images[0].format: "astc-4x4" is not an image format`},
		{tolerancesPath, `{"tolerances": [{"folder": "../outside", "max_channel_delta": 1}]}`, tolerancesPath + `: tolerances[0].folder: "../outside" is not a corpus-relative path`},
		{tolerancesPath, `{"tolerances": [{"fixture": "/etc/passwd"}]}`, tolerancesPath + `: tolerances[0].fixture: "/etc/passwd" is not the corpus path of a fixture`},
		{tolerancesPath, `{"tolerances": [{"backend": "../x"}]}`, tolerancesPath + `: tolerances[0].backend: "../x" is not a backend`},
		{tolerancesPath, `{"tolerances": [{"max_channel_delta": 300}]}`, tolerancesPath + `: tolerances[0].max_channel_delta 300 is not between 0 and 255`},
	} {
		c := newCorpus(squareDescription)
		c.putRef(t, "any", square())
		c.files[tc.file] = []byte(tc.content)
		files := len(c.files)
		got := check(t, c, impl(square()), true)
		if got.Verdict != model.ImageUndecodable || !strings.HasPrefix(got.Error, tc.want) {
			t.Errorf("%s\n got %s: %s\nwant %s", tc.content, got.Verdict, got.Error, tc.want)
		}
		if len(c.images) != 0 || len(c.files) != files {
			t.Errorf("%s: wrote %v %v", tc.content, slices.Sorted(maps.Keys(c.images)), slices.Sorted(maps.Keys(c.files)))
		}
	}
}

// TestHostileNames: a hello's name or adapter made of dots and slashes
// never leads a reference or an image out of its folder.
func TestHostileNames(t *testing.T) {
	c := newCorpus(squareDescription)
	im := impl(square())
	im.Name = ".."
	im.Adapter = &model.GPUAdapter{Vendor: "../..", Device: "/etc/passwd"}
	got := check(t, c, im, true)
	if got.Backend != "unnamed" || got.PlatformKey != "..-..-etc-passwd" {
		t.Errorf("%s/%s", got.Backend, got.PlatformKey)
	}
	for p := range c.files {
		if !fs.ValidPath(p) || !strings.HasPrefix(p, "level3/") {
			t.Errorf("wrote %q", p)
		}
	}
	for p := range c.images {
		if !fs.ValidPath(p) || !strings.HasPrefix(p, "unnamed/") {
			t.Errorf("wrote image %q", p)
		}
	}
	if New(c.options(false)).Describes("../x.json") {
		t.Error("a path out of the corpus was read")
	}
}

func TestParseKey(t *testing.T) {
	if k, err := ParseKey("name, vendor,device"); err != nil || strings.Join(k, ",") != "name,vendor,device" {
		t.Errorf("%v %v", k, err)
	}
	for _, bad := range []string{"", "gpu", "vendor,vendor"} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestParity: two runtimes' images of one fixture are compared with each
// other under the tolerance of the first one's backend, whatever their
// references say.
func TestParity(t *testing.T) {
	c := newCorpus(squareDescription)
	a, b, same := impl(square()), impl(square()), impl(square())
	b.Name, same.Name = "dawn-native", "wgpu"
	b.Readbacks[fixture][0][2]++
	checker := New(c.options(false))
	for _, im := range []*model.Implementation{a, b, same} {
		if err := checker.Check(im, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	checker.Parity(a, []*model.Implementation{b, same})
	if got := b.Images[0]; got.Against != "webgpu-node 1.0" || got.AgainstVerdict != model.ImageExceeded || got.AgainstExceeded != "max_channel_delta 1 > 0" {
		t.Errorf("off by one: %+v", got)
	}
	if got := same.Images[0]; got.AgainstVerdict != model.ImageIdentical || got.Verdict != model.ImageMissing {
		t.Errorf("the same image: %+v", got)
	}
	if a.Images[0].Against != "" {
		t.Errorf("the reference was compared with itself: %+v", a.Images[0])
	}
	c.files[tolerancesPath] = []byte(`{"tolerances": [{"backend": "webgpu-node", "max_channel_delta": 1}]}`)
	checker = New(c.options(false))
	for _, im := range []*model.Implementation{a, b} {
		if err := checker.Check(im, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	checker.Parity(a, []*model.Implementation{b})
	if got := b.Images[0]; got.AgainstVerdict != model.ImageWithin {
		t.Errorf("within the first one's tolerance: %+v", got)
	}
}
