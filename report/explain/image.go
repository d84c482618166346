package explain

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
)

// ImageFailure is, in a few stable words, why an image check fails: the
// bound it exceeded in the short form of docs/level3.md ("max_channel_delta
// 1 > 0"), or what kept it from comparison; "" for one that passes.
func ImageFailure(c *model.ImageCheck) string {
	if c == nil {
		return ""
	}
	switch c.Verdict {
	case model.ImageIdentical, model.ImageWithin:
		return ""
	case model.ImageExceeded, model.ImageDimensions, model.ImageFormat:
		return c.Exceeded
	case model.ImageMissing:
		return "no reference for " + c.Backend + "/" + c.PlatformKey + " or a less specific key"
	case model.ImageNondeterministic:
		return fmt.Sprintf("nondeterministic: the readback differed between %d attempts", c.Attempts)
	}
	return "undecodable: " + c.Error
}

// ImageMetrics are an image check's measures in one line: dimensions,
// the largest difference, the changed pixels.
func ImageMetrics(c *model.ImageCheck) string {
	if c.Pixels == 0 {
		if c.Width == 0 {
			return ""
		}
		return fmt.Sprintf("%dx%d %s", c.Width, c.Height, c.Format)
	}
	delta := fmt.Sprintf("max delta %d", c.MaxChannelDelta)
	if c.MaxAbs != 0 || c.MaxULP != 0 {
		delta = fmt.Sprintf("max abs %g, max ulp %d", c.MaxAbs, c.MaxULP)
	}
	return fmt.Sprintf("%dx%d %s, %s, %d of %d pixels changed (%.4g%%), %d differ",
		c.Width, c.Height, c.Format, delta, c.ChangedPixels, c.Pixels, 100*c.ChangedFraction, c.DifferentPixels)
}
