package model

// ImageVerdict is what became of one readback image at Level 3.
type ImageVerdict string

// The verdicts of an image check. Identical and Within pass; Missing is
// said, and fails only a run that fails on Level 3; the others fail such
// a run.
const (
	// ImageIdentical: no channel differs from the reference.
	ImageIdentical ImageVerdict = "identical"
	// ImageWithin: channels differ, inside the tolerance.
	ImageWithin ImageVerdict = "within"
	// ImageExceeded: the tolerance ImageCheck.Exceeded names is exceeded.
	ImageExceeded ImageVerdict = "exceeded"
	// ImageDimensions, ImageFormat: the image and its reference differ in
	// size or in the quantities they hold; nothing else is measured.
	ImageDimensions ImageVerdict = "dimensions"
	ImageFormat     ImageVerdict = "format"
	// ImageMissing: no reference for the image under any platform key.
	ImageMissing ImageVerdict = "missing_reference"
	// ImageUndecodable: the readback, the description, the reference or
	// the tolerances could not be read; ImageCheck.Error names the file
	// and the field.
	ImageUndecodable ImageVerdict = "undecodable"
	// ImageNondeterministic: the readback differed between attempts of
	// the same fixture; never compared, never written as a reference.
	ImageNondeterministic ImageVerdict = "nondeterministic"
)

// Pass says whether the verdict matches the reference.
func (v ImageVerdict) Pass() bool { return v == ImageIdentical || v == ImageWithin }

// Fails says whether the verdict fails a run that fails on Level 3.
func (v ImageVerdict) Fails() bool { return !v.Pass() }

// ImageCheck is one readback of one fixture, decoded as the image its
// description says and compared with the reference of the implementation's
// backend and platform (Level 3).
type ImageCheck struct {
	// Path is the fixture's corpus path; Readback the zero-based index of
	// the readback among its readbacks in stream order.
	Path     string
	Readback int
	// Backend and PlatformKey are where the reference was looked for:
	// the implementation's name and its most specific platform key, each
	// slugged.
	Backend, PlatformKey string
	Verdict              ImageVerdict
	// Exceeded is the bound the image exceeded, in the short form of
	// docs/level3.md ("max_channel_delta 1 > 0"); Error why the image
	// could not be compared, naming the file and the field.
	Exceeded string
	Error    string
	// Tolerance is the tolerance that applied, as tolerances.json spells
	// its fields ("exact" for none).
	Tolerance string

	Width, Height       int
	RefWidth, RefHeight int
	Format, RefFormat   string
	Pixels              int
	DifferentPixels     int
	ChangedPixels       int
	ChangedFraction     float64
	// MaxChannelDelta is an 8-bit or integer format's largest channel
	// difference; MaxAbs (+Inf when a NaN met a number) and MaxULP a
	// float format's.
	MaxChannelDelta uint64
	MaxAbs          float64
	MaxULP          uint64

	// Reference is the corpus path of the reference compared with ("" when
	// none was found); Actual and Diff the paths of the image and the diff
	// image written for people, relative to the images folder ("" when
	// none was written).
	Reference string
	Actual    string
	Diff      string
	// Updated is the corpus path of the reference this run wrote (only
	// on request); the metrics are then those against the reference it
	// replaced, or none when there was none.
	Updated string
	// Attempts is how many times the fixture ran for this image (1 unless
	// repeats were asked for).
	Attempts int
	// Against is the best ranked implementation with the same image
	// decoded, which this one was compared with under that one's
	// tolerance (Level 3 across runtimes), AgainstVerdict and
	// AgainstExceeded the outcome; "" when there was none to compare
	// with (or this is it). Information: it fails nothing.
	Against         string
	AgainstVerdict  ImageVerdict
	AgainstExceeded string
}
