package jsonout

import (
	"fmt"
	"math"
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// ImageCheck is the wire form of model.ImageCheck: one readback image of
// a fixture compared with its reference (Level 3).
type ImageCheck struct {
	CorpusPath  string `json:"corpus_path"`
	Readback    int    `json:"readback"`
	Backend     string `json:"backend"`
	PlatformKey string `json:"platform_key"`
	Verdict     string `json:"verdict"`
	// Failure is explain.ImageFailure: the bound exceeded, or why the
	// image was not compared.
	Failure   string `json:"failure,omitempty"`
	Error     string `json:"error,omitempty"`
	Tolerance string `json:"tolerance,omitempty"`
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	Format    string `json:"format,omitempty"`
	RefWidth  int    `json:"reference_width,omitempty"`
	RefHeight int    `json:"reference_height,omitempty"`
	RefFormat string `json:"reference_format,omitempty"`
	Pixels    int    `json:"pixels,omitempty"`
	// The measures of docs/level3.md "Comparison"; MaxAbs is a decimal
	// string, since a NaN against a number differs by +Inf, which JSON
	// numbers cannot say.
	DifferentPixels int     `json:"different_pixels"`
	ChangedPixels   int     `json:"changed_pixels"`
	ChangedFraction float64 `json:"changed_fraction"`
	MaxChannelDelta uint64  `json:"max_channel_delta"`
	MaxAbs          string  `json:"max_abs,omitempty"`
	MaxULP          uint64  `json:"max_ulp,omitempty"`
	Reference       string  `json:"reference,omitempty"`
	Actual          string  `json:"actual,omitempty"`
	Diff            string  `json:"diff,omitempty"`
	Updated         string  `json:"updated,omitempty"`
	Attempts        int     `json:"attempts"`
	// Against, AgainstVerdict and AgainstFailure compare the image with
	// the best ranked implementation's (Level 3 across runtimes).
	Against        string `json:"against,omitempty"`
	AgainstVerdict string `json:"against_verdict,omitempty"`
	AgainstFailure string `json:"against_failure,omitempty"`
}

func imageChecks(checks []model.ImageCheck) []ImageCheck {
	var out []ImageCheck
	for i := range checks {
		c := &checks[i]
		rec := ImageCheck{CorpusPath: c.Path, Readback: c.Readback, Backend: c.Backend, PlatformKey: c.PlatformKey,
			Verdict: string(c.Verdict), Failure: explain.ImageFailure(c), Error: c.Error, Tolerance: c.Tolerance,
			Width: c.Width, Height: c.Height, Format: c.Format, RefWidth: c.RefWidth, RefHeight: c.RefHeight, RefFormat: c.RefFormat,
			Pixels: c.Pixels, DifferentPixels: c.DifferentPixels, ChangedPixels: c.ChangedPixels, ChangedFraction: c.ChangedFraction,
			MaxChannelDelta: c.MaxChannelDelta, MaxULP: c.MaxULP,
			Reference: c.Reference, Actual: c.Actual, Diff: c.Diff, Updated: c.Updated, Attempts: c.Attempts,
			Against: c.Against, AgainstVerdict: string(c.AgainstVerdict), AgainstFailure: c.AgainstExceeded}
		if c.MaxAbs != 0 {
			rec.MaxAbs = strconv.FormatFloat(c.MaxAbs, 'g', -1, 64)
		}
		out = append(out, rec)
	}
	return out
}

func readImageChecks(recs []ImageCheck) ([]model.ImageCheck, error) {
	var out []model.ImageCheck
	for i := range recs {
		r := &recs[i]
		c := model.ImageCheck{Path: r.CorpusPath, Readback: r.Readback, Backend: r.Backend, PlatformKey: r.PlatformKey,
			Verdict: model.ImageVerdict(r.Verdict), Error: r.Error, Tolerance: r.Tolerance,
			Width: r.Width, Height: r.Height, Format: r.Format, RefWidth: r.RefWidth, RefHeight: r.RefHeight, RefFormat: r.RefFormat,
			Pixels: r.Pixels, DifferentPixels: r.DifferentPixels, ChangedPixels: r.ChangedPixels, ChangedFraction: r.ChangedFraction,
			MaxChannelDelta: r.MaxChannelDelta, MaxULP: r.MaxULP,
			Reference: r.Reference, Actual: r.Actual, Diff: r.Diff, Updated: r.Updated, Attempts: r.Attempts,
			Against: r.Against, AgainstVerdict: model.ImageVerdict(r.AgainstVerdict), AgainstExceeded: r.AgainstFailure}
		if c.Verdict == model.ImageExceeded || c.Verdict == model.ImageDimensions || c.Verdict == model.ImageFormat {
			// Exceeded is what the failure words for a compared image.
			c.Exceeded = r.Failure
		}
		if r.MaxAbs != "" {
			v, err := strconv.ParseFloat(r.MaxAbs, 64)
			if err != nil || math.IsNaN(v) {
				return nil, fmt.Errorf("images[%d].max_abs: %q is not a number", i, r.MaxAbs)
			}
			c.MaxAbs = v
		}
		out = append(out, c)
	}
	return out, nil
}
