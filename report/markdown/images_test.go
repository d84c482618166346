package markdown

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// imagesLinked are the options of the action's run: the images folder
// beside the JSON report.
var imagesLinked = func() Options {
	o := linked
	o.ImagesFolder = "drp2-fixtures.json.images"
	return o
}()

// TestImagesGolden: the comment and the whole Markdown report (the job
// summary) of 3 and of 400 failing Level 3 images.
func TestImagesGolden(t *testing.T) {
	for _, n := range []int{3, 400} {
		run := sample.FailingImages(n)
		golden.Check(t, fmt.Sprintf("images-%d-comment.md", n), []byte(ImplementationsComment(run, imagesLinked)))
		golden.Check(t, fmt.Sprintf("images-%d-report.md", n), []byte(Report(run, imagesLinked)))
	}
}

// TestImagesSayWhereTheFilesAre: each failing image shows the bound it
// exceeded and its measures; the reference is linked at the commit, below
// the corpus root; the actual and diff images are named by their paths in
// the images folder, never linked; the workflow run is linked as where an
// uploaded folder is.
func TestImagesSayWhereTheFilesAre(t *testing.T) {
	c := plain(ImplementationsComment(sample.FailingImages(3), imagesLinked))
	for _, want := range []string{
		"### Level 3 images",
		"3 of 7 images checked do not match their references",
		"**max_channel_delta 1 &gt; 0**",
		"64×64 rgba8unorm · max delta 1 · 3 of 4096 pixels changed (0.0732%) · tolerance <code>exact</code>",
		"**float_ulp 9 &gt; 4**",
		"max abs 2.5e-06, max ulp 9",
		"nondeterministic: the readback differed between 3 attempts",
		"reference [<code>level3/refs/webgpu.js-on-node-swiftshader/any/positive/render_triangle/0.png</code>](https://github.com/drp2/drp2-fixtures/blob/0123456789abcdef0123456789abcdef01234567/fixtures/level3/refs/webgpu.js-on-node-swiftshader/any/positive/render_triangle/0.png)",
		"actual <code>webgpu.js-on-node-swiftshader/google-swiftshader/positive/render_triangle/0.actual.png</code>",
		"diff <code>webgpu.js-on-node-swiftshader/google-swiftshader/positive/render_triangle/0.diff.png</code>",
		"the images folder `drp2-fixtures.json.images`, which a workflow that uploads it as an artifact lists on the [workflow run](https://github.com/drp2/drp2-fixtures/actions/runs/123456789)",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("the comment lacks %q", want)
		}
	}
	if strings.Contains(c, ".actual.png)") || strings.Contains(c, ".diff.png)") {
		t.Error("an image the run wrote is linked: nothing the action did puts it at a URL")
	}
	if raw := ImplementationsComment(sample.FailingImages(3), imagesLinked); strings.Contains(raw, "<b>x</b>") || strings.Contains(raw, "|`y`") {
		t.Error("the markup of a fixture's path reaches the comment")
	}
	bare := ImplementationsComment(sample.FailingImages(3), Options{})
	if strings.Contains(bare[strings.Index(bare, "### Level 3 images"):], "](") {
		t.Error("an image is linked without a commit or a workflow run to link")
	}
	if !strings.Contains(bare, "the images folder (`--images-out`)") {
		t.Error("without a folder named, the comment does not say which option names it")
	}
}

// maxImagesSectionChars bounds the comment's Level 3 images, whatever
// their number: a few rows a reviewer reads at a glance.
const maxImagesSectionChars = 6_000

// TestImagesCompactAt400: 400 failing images make a comment that lists
// a few and says where the rest are, within the comment's bound of the
// runtime matrix, and a report that lists more.
func TestImagesCompactAt400(t *testing.T) {
	run := sample.FailingImages(400)
	c := ImplementationsComment(run, imagesLinked)
	section := c[strings.Index(c, "### Level 3 images"):]
	if n := utf8.RuneCountInString(section); n > maxImagesSectionChars {
		t.Errorf("the images of the comment of 400 failing images have %d characters, want at most %d", n, maxImagesSectionChars)
	}
	if rows := strings.Count(section, "\n- ❌ "); rows != maxCommentImages {
		t.Errorf("the comment lists %d images, want %d", rows, maxCommentImages)
	}
	if !strings.Contains(c, fmt.Sprintf("…and %d more images; the JSON report lists every one", 400-maxCommentImages)) {
		t.Error("the comment does not say how many images it left out")
	}
	r := Report(run, imagesLinked)
	if rows := strings.Count(r[strings.Index(r, "### Level 3 images"):], "\n- ❌ "); rows != maxImagesListed {
		t.Errorf("the report lists %d images, want %d", rows, maxImagesListed)
	}
}
