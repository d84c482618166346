package site

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/raster"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// scene draws a 64×64 triangle over a blue-gray background, its left
// edge shifted by shift texels: the reference at 0, an actual image one
// texel off at 1.
func scene(shift int) raster.Image {
	img := raster.Image{Width: 64, Height: 64, Format: raster.RGBA8Unorm, Pix: make([]byte, 64*64*4)}
	for y := range 64 {
		for x := range 64 {
			c := []byte{40, 60, 90, 255}
			if y >= 8 && y < 56 && x >= 32-(y-8)/2+shift && x <= 32+(y-8)/2 {
				c = []byte{230, 120, 30, 255}
			}
			copy(img.Pix[(y*64+x)*4:], c)
		}
	}
	return img
}

// imageStore holds the PNG files of the images of sample.FailingImages:
// by "actual:"/"diff:" and the path below the images folder, and by
// "reference:" and the corpus path; it records what the site asked for.
type imageStore struct {
	files map[string][]byte
	asked []string
}

func newImageStore(t *testing.T, run *model.Run) *imageStore {
	t.Helper()
	want, got := scene(0), scene(1)
	var ref, actual, diff bytes.Buffer
	if err := raster.WritePNG(&ref, want); err != nil {
		t.Fatal(err)
	}
	if err := raster.WritePNG(&actual, got); err != nil {
		t.Fatal(err)
	}
	if err := raster.WriteDiffPNG(&diff, got, want, raster.Tolerance{}); err != nil {
		t.Fatal(err)
	}
	s := &imageStore{files: map[string][]byte{}}
	for _, im := range run.Implementations {
		for _, c := range im.Images {
			s.files["actual:"+c.Actual] = actual.Bytes()
			s.files["diff:"+c.Diff] = diff.Bytes()
			s.files["reference:"+c.Reference] = ref.Bytes()
		}
	}
	return s
}

func (s *imageStore) read(kind ImageKind, source, corpusRoot, rel string) ([]byte, error) {
	key := map[ImageKind]string{ImageActual: "actual:", ImageDiff: "diff:", ImageReference: "reference:"}[kind] + rel
	s.asked = append(s.asked, key)
	if data, ok := s.files[key]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("%s: no such file", rel)
}

func imageSite(t *testing.T, n int) (files []File, store *imageStore) {
	t.Helper()
	run := sample.FailingImages(n)
	store = newImageStore(t, run)
	return Build([]Report{{Source: "reports/webgpu.json", Run: run}}, Options{ImageFile: store.read}), store
}

var imgTag = regexp.MustCompile(`<img src="\.\./(images/[0-9a-f]{24}\.png)" width="(\d+)" height="(\d+)" alt="(\w+) image">`)

// TestImagesSideBySide: a fixture's page shows each failing image of an
// implementation's latest report as its actual image, reference and
// diff side by side, with the bound it exceeded and its measures; the
// files are copied under names made of their content's hash, and the
// implementation's page lists the image with a link to them.
func TestImagesSideBySide(t *testing.T) {
	files, store := imageSite(t, 3)
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[f.Path] = f.Data
	}
	page := string(find(files, "fixture/positive-render-triangle-").Data)
	for _, want := range []string{
		`<h2 id="images">Level 3 images that fail</h2>`,
		`readback 0: <span class="fail">max_channel_delta 1 &gt; 0</span>`,
		`64x64 rgba8unorm, max delta 1, 3 of 4096 pixels changed (0.07324%), 3 differ · tolerance <code>exact</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the fixture's page lacks %q", want)
		}
	}
	tags := imgTag.FindAllStringSubmatch(page, -1)
	if len(tags) != 3 || tags[0][4] != "Actual" || tags[1][4] != "Reference" || tags[2][4] != "Diff" {
		t.Fatalf("the fixture's page shows %d pictures, want the actual image, the reference and the diff: %v", len(tags), tags)
	}
	for i, key := range []string{"actual:", "reference:", "diff:"} {
		var data []byte
		for k, v := range store.files {
			if strings.HasPrefix(k, key) && strings.Contains(k, "render_triangle") {
				data = v
			}
		}
		if !bytes.Equal(byPath[tags[i][1]], data) || tags[i][2] != "64" || tags[i][3] != "64" {
			t.Errorf("%s is not the %s file it shows", tags[i][1], strings.TrimSuffix(key, ":"))
		}
	}
	nondeterministic := string(find(files, "fixture/positive-render-blend-alpha-").Data)
	for _, want := range []string{"nondeterministic: the readback differed between 3 attempts", "none: the images were not compared texel by texel", "none found"} {
		if !strings.Contains(nondeterministic, want) {
			t.Errorf("the page of a nondeterministic image lacks %q", want)
		}
	}
	hostile := find(files, "fixture/positive-render-b-x-b-y-")
	if hostile == nil || strings.Contains(string(hostile.Data), "<b>x</b>") || !strings.Contains(string(hostile.Data), "kept exactly (0.exact.json), with no picture") {
		t.Error("the page of a fixture whose path holds markup shows it raw, or not at all, or shows the float reference as a picture")
	}
	impl := string(find(files, "impl/webgpu-js-on-node-swiftshader").Data)
	if !strings.Contains(impl, `<a href="../fixture/`+fixtureSlug("positive/render_triangle.json")+`.html#image-`) {
		t.Error("the implementation's page does not link its failing image's pictures")
	}
	for _, f := range files {
		if strings.HasPrefix(f.Path, "images/") && !regexp.MustCompile(`^images/[0-9a-f]{24}\.png$`).MatchString(f.Path) {
			t.Errorf("a copied image is named %s, not by its hash", f.Path)
		}
	}
}

// TestImagesOnlyWhatTheSiteControls: a report is anyone's, so a path it
// names that leaves its folder, or a file that is not a PNG, is neither
// read nor copied, and says why on the page.
func TestImagesOnlyWhatTheSiteControls(t *testing.T) {
	run := sample.FailingImages(1)
	store := newImageStore(t, run)
	node := &run.Implementations[len(run.Implementations)-2]
	var c *model.ImageCheck
	for j := range node.Images {
		if !node.Images[j].Verdict.Pass() {
			c = &node.Images[j]
		}
	}
	c.Actual = "../../secret/x.actual.png"
	c.Reference = "positive/render_triangle.json"
	store.files["diff:"+c.Diff] = []byte("<svg onload=alert(1)>")
	files := Build([]Report{{Source: "r.json", Run: run}}, Options{ImageFile: store.read})
	for _, k := range store.asked {
		if strings.Contains(k, "..") || strings.Contains(k, ".json") {
			t.Errorf("the site asked for %s", k)
		}
	}
	page := string(find(files, "fixture/positive-render-triangle-").Data)
	if n := len(imgTag.FindAllString(page, -1)); n != 0 {
		t.Errorf("the page shows %d pictures of files it should refuse", n)
	}
	if strings.Count(page, "not a path the site reads") != 2 || !strings.Contains(page, "not a PNG the site shows") {
		t.Errorf("the page does not say why each picture is missing:\n%s", page[strings.Index(page, `<h2 id="images">`):])
	}
	for _, f := range files {
		if path.Dir(f.Path) == "images" {
			t.Errorf("%s copied", f.Path)
		}
	}
}

// TestImagesAt400: 400 failing images give each fixture's page its own
// and copy each distinct file once.
func TestImagesAt400(t *testing.T) {
	files, _ := imageSite(t, 400)
	pictures, copied := 0, 0
	for _, f := range files {
		if strings.HasPrefix(f.Path, "fixture/") {
			pictures += len(imgTag.FindAllString(string(f.Data), -1))
		}
		if strings.HasPrefix(f.Path, "images/") {
			copied++
		}
	}
	// Of every 6 failures in turn: all three pictures, the actual image
	// alone (nondeterministic), the actual and diff (a float reference is
	// exact), the actual and reference (dimensions), the actual alone (no
	// reference), the reference alone (undecodable).
	if want := 400/6*(3+1+2+2+1+1) + 3 + 1 + 2 + 2; pictures != want {
		t.Errorf("the fixtures' pages show %d pictures, want %d", pictures, want)
	}
	if copied != 3 {
		t.Errorf("%d files copied, want the 3 distinct ones", copied)
	}
}
