package markdown

// The Level 3 images that fail: the bound each exceeded, its measures,
// and where its images are. The action uploads nothing, so an image the
// run wrote is named by its path in the images folder (the artifact a
// workflow uploads), never by a link to a place it may not be; only a
// reference, a file of the repository at the commit the run checked, is
// linked.

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// Images listed at most: the comment's few at a glance, the job summary's
// and the check run's more; the JSON report lists every one.
const (
	maxCommentImages = 6
	maxImagesListed  = 40
)

// failingImage is an image that fails Level 3 (any verdict but identical
// and within), and the number of the implementation that rendered it.
type failingImage struct {
	number int
	check  *model.ImageCheck
}

// imagesAt are the images shown for a matrix of at most maxRows rows.
func imagesAt(maxRows int) int {
	if maxRows <= maxCommentRows {
		return maxCommentImages
	}
	return maxImagesListed
}

// writeImages lists the images that fail Level 3 of each implementation
// (ranked: the first is number 1), the first max of them: per image its
// fixture, readback and implementation, the bound it exceeded, its
// measures and its files. corpusRoot is the corpus root as the run names
// it, relative to the repository, which locates a reference.
func writeImages(b *strings.Builder, ranked [][]model.ImageCheck, corpusRoot string, opts Options, max int) {
	var images []failingImage
	total := 0
	for n, checks := range ranked {
		for j := range checks {
			if c := &checks[j]; !c.Verdict.Pass() {
				images = append(images, failingImage{number: n + 1, check: c})
			}
		}
		total += len(checks)
	}
	if total == 0 {
		return
	}
	failing := len(images)
	verb := "do not match their references"
	if failing == 1 {
		verb = "does not match its reference"
	}
	fmt.Fprintf(b, "\n### Level 3 images\n\n%d of %d %s checked %s (`--fail-on level3` fails the run on them). %s\n",
		failing, total, explain.Plural(total, "image", "images"), verb, imagesWhere(opts))
	shown := min(max, failing)
	if shown > 0 {
		b.WriteString("\n")
	}
	// A list, not a table: its items wrap at any width, where a table of
	// long paths grows rows a screen tall in a phone's column.
	for _, fi := range images[:shown] {
		c := fi.check
		fails := cell(escape.Cap(imageFailure(c), maxWhy))
		if c.Verdict != model.ImageMissing && c.Verdict != model.ImageUndecodable && c.Verdict != model.ImageNondeterministic {
			fails = "**" + fails + "**"
		}
		what := codeCell(c.Path) + fmt.Sprintf(" readback %d · %d. %s", c.Readback, fi.number, escape.Markdown(escape.Clip(c.Backend, maxLabelChars)))
		measures := "tolerance " + codeCell(escape.Clip(c.Tolerance, maxWhy))
		if m := imageMeasures(c); m != "" {
			measures = m + " · " + measures
		}
		fmt.Fprintf(b, "- ❌ %s: %s<br>%s<br>%s\n", what, fails, measures, imageFiles(c, corpusRoot, opts))
	}
	if rest := failing - shown; rest > 0 {
		fmt.Fprintf(b, "\n…and %d more %s; the JSON report lists every one, the images folder holds their files.\n",
			rest, explain.Plural(rest, "image", "images"))
	}
}

// imagesWhere says where the images the run wrote are: the folder, and
// the workflow run whose artifacts hold it when the workflow uploads it.
func imagesWhere(opts Options) string {
	folder := "the images folder (`--images-out`)"
	if opts.ImagesFolder != "" {
		folder = "the images folder " + escape.MarkdownCode(opts.ImagesFolder)
	}
	s := "Actual and diff images are paths in " + folder
	if u := linkURL(opts.WorkflowRunURL); u != "" {
		s += ", which a workflow that uploads it as an artifact lists on the [workflow run](" + u + ")"
	}
	return s + "; a reference is a file of the corpus."
}

// imageFailure is why an image fails, in the words of the other reports,
// a missing reference named as such.
func imageFailure(c *model.ImageCheck) string {
	if c.Verdict == model.ImageMissing {
		return "missing reference: " + explain.ImageFailure(c)
	}
	return explain.ImageFailure(c)
}

// imageMeasures are the measures a reader compares: the dimensions of
// both images, the largest difference and the changed pixels.
func imageMeasures(c *model.ImageCheck) string {
	if c.Width == 0 {
		return ""
	}
	dims := fmt.Sprintf("%d×%d %s", c.Width, c.Height, escape.Markdown(c.Format))
	if c.RefWidth != 0 && (c.RefWidth != c.Width || c.RefHeight != c.Height || c.RefFormat != c.Format) {
		dims += fmt.Sprintf(" (reference %d×%d %s)", c.RefWidth, c.RefHeight, escape.Markdown(c.RefFormat))
	}
	if c.Pixels == 0 {
		return dims
	}
	delta := fmt.Sprintf("max delta %d", c.MaxChannelDelta)
	if c.MaxAbs != 0 || c.MaxULP != 0 {
		delta = fmt.Sprintf("max abs %g, max ulp %d", c.MaxAbs, c.MaxULP)
	}
	return fmt.Sprintf("%s · %s · %d of %d pixels changed (%.3g%%)", dims, delta, c.ChangedPixels, c.Pixels, 100*c.ChangedFraction)
}

// imageFiles are the image's files: the actual and diff images by their
// paths in the images folder, the reference linked at the commit when
// the run names one.
func imageFiles(c *model.ImageCheck, corpusRoot string, opts Options) string {
	var parts []string
	if c.Actual != "" {
		parts = append(parts, "actual "+codeCell(c.Actual))
	}
	if c.Diff != "" {
		parts = append(parts, "diff "+codeCell(c.Diff))
	}
	if c.Reference != "" {
		ref := codeCell(c.Reference)
		if u := referenceURL(c.Reference, corpusRoot, opts); u != "" {
			ref = "[" + ref + "](" + u + ")"
		}
		parts = append(parts, "reference "+ref)
	}
	if c.Updated != "" {
		parts = append(parts, "written: "+codeCell(c.Updated))
	}
	if len(parts) == 0 {
		return "no file written"
	}
	return strings.Join(parts, "<br>")
}

// referenceURL links a reference (a corpus path) at the commit the run
// checked: the corpus root joined with it, as a fixture is linked; ""
// when the options name no commit, the corpus is embedded, or either
// path leaves the repository.
func referenceURL(ref, corpusRoot string, opts Options) string {
	base := serverBase(opts.ServerURL)
	if base == "" || opts.Repository == "" || commitSHA(opts.SHA) == "" || corpusRoot == "" || corpusRoot == "embedded" {
		return ""
	}
	for _, p := range []string{ref, corpusRoot} {
		if clean := path.Clean(p); path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains(p, `\`) {
			return ""
		}
	}
	segs := []string{repoPath(opts.Repository), "blob", opts.SHA}
	for _, s := range strings.Split(path.Join(corpusRoot, ref), "/") {
		if s != "." {
			segs = append(segs, url.PathEscape(s))
		}
	}
	return destination(base + "/" + strings.Join(segs, "/"))
}
