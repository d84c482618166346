// Package level3 checks what a runtime rendered: the readbacks a corpus
// describes as images (level3/images/<fixture>), decoded and compared
// (internal/raster) with the references of the implementation's backend
// and platform (level3/refs/<backend>/<platform key>/...), falling back
// from the most specific key to "any", under the tolerance that applies
// (level3/tolerances.json). It writes the actual and diff images for
// people, and references only when asked, through the functions it is
// given: where files go is its caller's choice.
package level3

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/raster"
	"github.com/drp2/drp2-fixtures/model"
)

// Options say where a check reads and writes.
type Options struct {
	// Read reads a file of the corpus by its corpus-relative path, with
	// an error that wraps fs.ErrNotExist for a file it does not have.
	Read func(rel string) ([]byte, error)
	// Key is the platform key's parts (ParseKey); nil means DefaultKey.
	Key []string
	// WriteImage writes an image for people at a path relative to the
	// images folder; nil writes none.
	WriteImage func(rel string, data []byte) error
	// WriteRef writes a reference at its corpus-relative path; nil
	// updates none, as a normal run must.
	WriteRef func(rel string, data []byte) error
}

// Checker checks the images of a run's implementations against one
// corpus's descriptions, tolerances and references.
type Checker struct {
	opts   Options
	rules  []rule
	tolErr string
	descs  map[string]*described
}

// New reads the corpus's tolerances; an unreadable file is said in the
// verdict of every image, not here.
func New(opts Options) *Checker {
	if opts.Key == nil {
		opts.Key = DefaultKey
	}
	c := &Checker{opts: opts, descs: map[string]*described{}}
	rules, err := readTolerances(opts.Read)
	if err != nil {
		c.tolErr = err.Error()
	}
	c.rules = rules
	return c
}

// Describes says whether the fixture at corpus path rel has images.
func (c *Checker) Describes(rel string) bool { return c.description(rel) != nil }

// description reads the side file of fixture rel once.
func (c *Checker) description(rel string) *described {
	d, ok := c.descs[rel]
	if !ok {
		if corpusPath(rel) {
			d = readDescription(c.opts.Read, rel)
		}
		c.descs[rel] = d
	}
	return d
}

// Unstable is, per fixture, the readbacks that differed between the
// attempts of a repeated fixture.
type Unstable map[string][]int

// Check compares the images of every fixture im passed Level 2 on (its
// Readbacks), in the order of its results, and sets im.Images. attempts
// is how many times each fixture with images ran. The error is a file
// that could not be written; the checks are made all the same.
func (c *Checker) Check(im *model.Implementation, attempts int, unstable Unstable) error {
	im.Images = nil
	backend, keys := Backend(im), Keys(im, c.opts.Key)
	var errs []error
	for i := range im.Results {
		rel := im.Results[i].RelPath
		data, ok := im.Readbacks[rel]
		d := c.description(rel)
		if !ok || d == nil {
			continue
		}
		for _, check := range c.fixture(rel, d, data, backend, keys) {
			check.Attempts = max(attempts, 1)
			if slices.Contains(unstable[rel], check.Readback) && check.Verdict != model.ImageUndecodable {
				check.ImageCheck = model.ImageCheck{Path: rel, Readback: check.Readback, Backend: backend, PlatformKey: keys[0],
					Verdict: model.ImageNondeterministic, Tolerance: check.Tolerance, Attempts: check.Attempts,
					Width: check.Width, Height: check.Height, Format: check.Format}
			} else if err := c.compare(&check, backend, keys); err != nil {
				errs = append(errs, err)
			}
			im.Images = append(im.Images, check.ImageCheck)
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// pending is a check with the image it decoded.
type pending struct {
	model.ImageCheck
	img raster.Image
	tol raster.Tolerance
}

// fixture decodes the images of fixture rel from its readbacks: a check
// per described image, undecodable ones already judged.
func (c *Checker) fixture(rel string, d *described, data [][]byte, backend string, keys []string) []pending {
	base := model.ImageCheck{Path: rel, Backend: backend, PlatformKey: keys[0]}
	if d.err != "" {
		base.Verdict, base.Error = model.ImageUndecodable, d.err
		return []pending{{ImageCheck: base}}
	}
	tol := toleranceFor(c.rules, backend, rel)
	base.Tolerance = toleranceText(tol)
	var out []pending
	for i, desc := range d.images {
		p := pending{ImageCheck: base, tol: tol}
		p.Readback, p.Format = desc.Readback, string(desc.Format)
		where := fmt.Sprintf("%s: images[%d]", descriptionPath(rel), i)
		switch {
		case c.tolErr != "":
			p.Verdict, p.Error = model.ImageUndecodable, c.tolErr
		case desc.Readback >= len(data):
			p.Verdict, p.Error = model.ImageUndecodable, fmt.Sprintf("%s.readback: %d is past the fixture's %d readbacks", where, desc.Readback, len(data))
		case data[desc.Readback] == nil:
			p.Verdict, p.Error = model.ImageUndecodable, fmt.Sprintf("%s.readback: readback %d was not kept (not base64, or over %d bytes)", where, desc.Readback, model.MaxParityBytes)
		default:
			img, err := raster.Decode(desc.Description, data[desc.Readback])
			if err != nil {
				p.Verdict, p.Error = model.ImageUndecodable, fmt.Sprintf("%s.%v", where, err)
				break
			}
			p.img, p.Width, p.Height = img, img.Width, img.Height
		}
		out = append(out, p)
	}
	return out
}

// compare finds the reference of a decoded image, compares it, writes
// what people look at, and the reference when asked.
func (c *Checker) compare(p *pending, backend string, keys []string) error {
	if p.Verdict != "" {
		return nil
	}
	ref, refPath, err := c.reference(p, backend, keys)
	if err != nil {
		p.Verdict, p.Error = model.ImageUndecodable, err.Error()
		return nil
	}
	if refPath == "" {
		p.Verdict = model.ImageMissing
	} else {
		p.Reference = refPath
		cmp, err := raster.Compare(p.img, ref, p.tol)
		if err != nil {
			p.Verdict, p.Error = model.ImageUndecodable, fmt.Sprintf("%s: %v", refPath, err)
			return nil
		}
		record(&p.ImageCheck, cmp)
	}
	var errs []error
	if !p.Verdict.Pass() || p.Verdict == model.ImageWithin {
		errs = append(errs, c.writeImages(p, ref, refPath != "", keys[0]))
	}
	if c.opts.WriteRef != nil && !p.Verdict.Pass() {
		errs = append(errs, c.writeRef(p, backend, keys[0]))
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// record copies the metrics of a comparison into the check.
func record(ch *model.ImageCheck, cmp raster.Comparison) {
	ch.Verdict = model.ImageVerdict(cmp.Outcome)
	ch.Exceeded = cmp.Exceeded
	ch.Width, ch.Height, ch.RefWidth, ch.RefHeight = cmp.Width, cmp.Height, cmp.RefWidth, cmp.RefHeight
	ch.Format, ch.RefFormat = string(cmp.Format), string(cmp.RefFormat)
	ch.Pixels, ch.DifferentPixels, ch.ChangedPixels, ch.ChangedFraction = cmp.Pixels, cmp.DifferentPixels, cmp.ChangedPixels, cmp.ChangedFraction
	ch.MaxChannelDelta, ch.MaxAbs, ch.MaxULP = cmp.MaxChannelDelta, cmp.MaxAbs, cmp.MaxULP
}

// eightBit are the formats whose reference is a PNG; the others' is an
// exact file.
var eightBit = []raster.Format{raster.RGBA8Unorm, raster.RGBA8UnormSRGB, raster.BGRA8Unorm, raster.BGRA8UnormSRGB, raster.R8Unorm}

// refExt is the extension of the reference of an image of format f.
func refExt(f raster.Format) string {
	if slices.Contains(eightBit, f) {
		return ".png"
	}
	return ".exact.json"
}

// reference reads the first reference of the image under keys, most
// specific first; "" when there is none.
func (c *Checker) reference(p *pending, backend string, keys []string) (raster.Image, string, error) {
	for _, key := range keys {
		file := refBase(backend, key, p.Path, p.Readback) + refExt(p.img.Format)
		data, err := c.opts.Read(file)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return raster.Image{}, "", fmt.Errorf("%s: %v", file, err)
		}
		var img raster.Image
		if refExt(p.img.Format) == ".png" {
			img, err = raster.ReadPNG(data, p.img.Format)
		} else {
			img, err = raster.ReadExact(data)
		}
		if err != nil {
			return raster.Image{}, "", fmt.Errorf("%s: %v", file, err)
		}
		return img, file, nil
	}
	return raster.Image{}, "", nil
}

// artifactBase is where the images of a check go below the images
// folder: as its reference would, without the level3/refs prefix.
func artifactBase(p *pending, key string) string {
	return strings.TrimPrefix(refBase(p.Backend, key, p.Path, p.Readback), Folder+"/refs/")
}

// writeImages writes the image, and its diff with the reference when
// they are comparable, for people to look at.
func (c *Checker) writeImages(p *pending, ref raster.Image, haveRef bool, key string) error {
	if c.opts.WriteImage == nil {
		return nil
	}
	base := artifactBase(p, key)
	var buf bytes.Buffer
	if err := raster.WritePNG(&buf, p.img); err != nil {
		return err
	}
	if err := c.opts.WriteImage(base+".actual.png", buf.Bytes()); err != nil {
		return err
	}
	p.Actual = base + ".actual.png"
	if !haveRef || p.Verdict == model.ImageDimensions || p.Verdict == model.ImageFormat {
		return nil
	}
	buf.Reset()
	if err := raster.WriteDiffPNG(&buf, p.img, ref, p.tol); err != nil {
		return err
	}
	if err := c.opts.WriteImage(base+".diff.png", buf.Bytes()); err != nil {
		return err
	}
	p.Diff = base + ".diff.png"
	return nil
}

// writeRef writes the image as the reference of the platform that ran,
// under its most specific key.
func (c *Checker) writeRef(p *pending, backend, key string) error {
	file := refBase(backend, key, p.Path, p.Readback) + refExt(p.img.Format)
	var buf bytes.Buffer
	var err error
	if refExt(p.img.Format) == ".png" {
		err = raster.WritePNG(&buf, p.img)
	} else {
		err = raster.WriteExact(&buf, p.img)
	}
	if err == nil {
		err = c.opts.WriteRef(file, buf.Bytes())
	}
	if err != nil {
		return fmt.Errorf("update-refs: %s: %w", file, err)
	}
	p.Updated = file
	return nil
}

// Parity compares the images of every implementation of others with the
// same image of ref (the best ranked), under the tolerance of ref's
// backend, so that the runtimes are held to one another as well as to
// their references. Images either could not decode, or found
// nondeterministic, are not compared.
func (c *Checker) Parity(ref *model.Implementation, others []*model.Implementation) {
	mine := map[imageKey]raster.Image{}
	for _, ch := range ref.Images {
		if img, ok := c.decoded(ref, &ch); ok {
			mine[imageKey{ch.Path, ch.Readback}] = img
		}
	}
	backend := Backend(ref)
	for _, im := range others {
		for i := range im.Images {
			ch := &im.Images[i]
			want, ok := mine[imageKey{ch.Path, ch.Readback}]
			if !ok {
				continue
			}
			got, ok := c.decoded(im, ch)
			if !ok {
				continue
			}
			cmp, err := raster.Compare(got, want, toleranceFor(c.rules, backend, ch.Path))
			if err != nil {
				continue
			}
			ch.Against, ch.AgainstVerdict, ch.AgainstExceeded = ref.Label(), model.ImageVerdict(cmp.Outcome), cmp.Exceeded
		}
	}
}

// imageKey is one readback of one fixture.
type imageKey struct {
	path     string
	readback int
}

// decoded is the image of a check decoded again from the readback it was
// made from; false for one that was not decoded.
func (c *Checker) decoded(im *model.Implementation, ch *model.ImageCheck) (raster.Image, bool) {
	if ch.Verdict == model.ImageUndecodable || ch.Verdict == model.ImageNondeterministic || c.tolErr != "" {
		return raster.Image{}, false
	}
	d := c.description(ch.Path)
	data := im.Readbacks[ch.Path]
	if d == nil || d.err != "" || ch.Readback >= len(data) {
		return raster.Image{}, false
	}
	for _, desc := range d.images {
		if desc.Readback == ch.Readback {
			img, err := raster.Decode(desc.Description, data[ch.Readback])
			return img, err == nil
		}
	}
	return raster.Image{}, false
}
