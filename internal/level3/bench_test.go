package level3

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/raster"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
)

// BenchmarkCheckCorpus is the Level 3 check of a run of 125 fixtures
// without images and 8 with a 64x64 rgba8unorm image each, identical to
// its reference: what image comparison adds to a run of the project's
// corpus and its rendering streams, the references read from memory.
func BenchmarkCheckCorpus(b *testing.B) {
	c := &corpus{files: map[string][]byte{}, images: map[string][]byte{}}
	im := &model.Implementation{Name: "webgpu-node", Adapter: &model.GPUAdapter{Vendor: "Google", Device: "SwiftShader"}, Readbacks: map[string][][]byte{}}
	d := raster.Description{Width: 64, Height: 64, BytesPerRow: 256, Format: raster.RGBA8Unorm}
	for i := range 133 {
		rel := fmt.Sprintf("positive/f%03d.json", i)
		im.Results = append(im.Results, model.Result{RelPath: rel})
		data := make([]byte, 64*256)
		for j := range data {
			data[j] = byte(i * j)
		}
		im.Readbacks[rel] = [][]byte{data}
		if i < 125 {
			continue
		}
		c.files[descriptionPath(rel)] = []byte(`{"images": [{"readback": 0, "width": 64, "height": 64, "bytes_per_row": 256, "format": "rgba8unorm"}]}`)
		img, _ := raster.Decode(d, data)
		var buf bytes.Buffer
		if err := raster.WritePNG(&buf, img); err != nil {
			b.Fatal(err)
		}
		c.files[refBase("webgpu-node", "google-swiftshader", rel, 0)+".png"] = buf.Bytes()
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	cpu := testkit.CPUTime(func() {
		for b.Loop() {
			n++
			if err := New(c.options(false)).Check(im, 1, nil); err != nil || len(im.Images) != 8 || im.Images[0].Verdict != model.ImageIdentical {
				b.Fatalf("%v %+v", err, im.Images)
			}
		}
	})
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(max(n, 1)), "cpu-ns/op")
}
