package site

// Level 3 images on the site: each failing image of an implementation's
// latest report, its actual image, its reference and its diff side by
// side on the fixture's page, with the bound it exceeded and its
// measures. A report names its files, and anyone publishes reports, so a
// name is a question to the front end (Options.ImageFile), never a path
// the site writes to: the site keeps a file only when it is a PNG within
// the bounds below, under a name made of its content's hash.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/png"
	"path"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// ImageKind is which file of an image check Options.ImageFile is asked
// for.
type ImageKind int

const (
	// ImageActual and ImageDiff are below the images folder of the
	// report (its file name and ".images"); rel is the check's Actual or
	// Diff.
	ImageActual ImageKind = iota
	ImageDiff
	// ImageReference is in the corpus the report ran: rel is the check's
	// Reference, a corpus path, corpusRoot the report's corpus root.
	ImageReference
)

// Bounds of a file the site copies: Level 3's largest image (16,777,216
// texels) as a PNG that compresses nothing is about 64 MiB; the site is
// read in a browser and keeps less.
const (
	MaxImageBytes = 32 << 20
	maxImageSide  = 16384
)

// imageFile is one copied PNG: its site path and its size.
type imageFile struct {
	Src           string
	Width, Height int
}

// imageView is one failing image of one implementation on a fixture's
// page.
type imageView struct {
	Anchor, Href, Name, Readback, Failure, Class, Tolerance, Measures string
	Actual, Reference, Diff                                           *imageFile
	// Missing says why a picture is absent, by picture.
	NoActual, NoReference, NoDiff string
}

// images gathers the failing images of every series' latest report, by
// fixture path, and the PNG files the pages show (by content, so a file
// two reports share is copied once).
func (s *siteData) gatherImages(read func(kind ImageKind, source, corpusRoot, rel string) ([]byte, error)) {
	s.images = map[string][]imageView{}
	files := map[string][]byte{}
	for _, se := range ranked(s.series) {
		e := se.latest()
		for j := range e.im.Images {
			c := &e.im.Images[j]
			v := imageView{Anchor: fmt.Sprintf("image-%s-%d", se.slug, c.Readback), Href: "../impl/" + se.slug + ".html", Name: clean(orDash(se.name)),
				Readback: fmt.Sprint(c.Readback), Failure: clean(explain.ImageFailure(c)), Class: "fail", Tolerance: clean(orDash(c.Tolerance)),
				Measures: clean(explain.ImageMetrics(c))}
			if c.Verdict == model.ImageMissing {
				v.Failure = "missing reference: " + v.Failure
			}
			v.Actual, v.NoActual = copyImage(files, read, ImageActual, e, c.Actual, ".actual.png", "not written")
			v.Diff, v.NoDiff = copyImage(files, read, ImageDiff, e, c.Diff, ".diff.png", "none: the images were not compared texel by texel")
			v.Reference, v.NoReference = copyImage(files, read, ImageReference, e, c.Reference, ".png", "none found")
			if strings.HasSuffix(c.Reference, ".exact.json") {
				v.NoReference = "kept exactly (" + clean(path.Base(c.Reference)) + "), with no picture"
			}
			s.images[c.Path] = append(s.images[c.Path], v)
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s.imageFiles = append(s.imageFiles, File{Path: name, Data: files[name]})
	}
}

// copyImage reads one file of an image check and keeps it in files when
// it is a PNG within the bounds, returning where the page finds it, or
// why there is none.
func copyImage(files map[string][]byte, read func(ImageKind, string, string, string) ([]byte, error), kind ImageKind, e *entry, rel, suffix, none string) (*imageFile, string) {
	if rel == "" {
		return nil, none
	}
	if read == nil {
		return nil, "not given to the site"
	}
	if !safeRel(rel) || !strings.HasSuffix(rel, suffix) || kind == ImageReference && !strings.HasPrefix(rel, "level3/refs/") {
		return nil, "not a path the site reads"
	}
	data, err := read(kind, e.source, e.corpusRoot, rel)
	if err != nil {
		return nil, "not found beside the report"
	}
	if len(data) > MaxImageBytes {
		return nil, "larger than the site keeps"
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxImageSide || cfg.Height > maxImageSide {
		return nil, "not a PNG the site shows"
	}
	sum := sha256.Sum256(data)
	name := "images/" + hex.EncodeToString(sum[:12]) + ".png"
	files[name] = data
	return &imageFile{Src: "../" + name, Width: cfg.Width, Height: cfg.Height}, ""
}

// safeRel says whether a path a report names is a plain relative slash
// path: clean, no "..", no backslash or control character.
func safeRel(p string) bool {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '\\' || r == ':' {
			return false
		}
	}
	return true
}

// failingImages are an implementation's images that fail Level 3, which
// the site keeps of its reports.
func failingImages(checks []model.ImageCheck) []model.ImageCheck {
	var out []model.ImageCheck
	for _, c := range checks {
		if !c.Verdict.Pass() {
			out = append(out, c)
		}
	}
	return out
}

// picture is one picture of the trio, for the template.
type picture struct {
	Caption, Why string
	File         *imageFile
}

func pic(caption string, f *imageFile, why string) picture {
	return picture{Caption: caption, File: f, Why: why}
}

// imageLine is a failing image in an implementation's page.
type imageLine struct {
	Href, Path, Failure string
	Readback            int
}

// imageLines are the failing images of a series' latest report, each
// linking its picture on the fixture's page.
func imageLines(se *series) []imageLine {
	var out []imageLine
	for _, c := range se.latest().im.Images {
		out = append(out, imageLine{Href: "../fixture/" + fixtureSlug(c.Path) + ".html#" + fmt.Sprintf("image-%s-%d", se.slug, c.Readback),
			Path: clean(c.Path), Failure: clean(explain.ImageFailure(&c)), Readback: c.Readback})
	}
	return out
}
