package harness

import (
	"bytes"
	"slices"

	"github.com/drp2/drp2-fixtures/internal/level3"
	"github.com/drp2/drp2-fixtures/model"
)

// ImageOptions say how the images of Level 3 are checked (CheckImages).
type ImageOptions struct {
	// Key is the platform key's parts (ParseImageKey); nil means the
	// adapter's vendor and device.
	Key []string
	// WriteImage writes an actual or diff image at a path relative to
	// the images folder; nil writes none.
	WriteImage func(rel string, data []byte) error
	// WriteRef writes a reference at its corpus-relative path; nil
	// writes none (a normal run).
	WriteRef func(rel string, data []byte) error
}

// ParseImageKey reads the parts a platform key is made of ("vendor,device").
func ParseImageKey(s string) ([]string, error) { return level3.ParseKey(s) }

// CheckImages compares, for every implementation, the readbacks the
// corpus describes as images with their references (Level 3), and sets
// each one's Images. The error is a file that could not be written; every
// check is made all the same.
func CheckImages(opts ImageOptions, impls []model.Implementation, read ReadFunc) error {
	c := level3.New(level3.Options{Read: read, Key: opts.Key, WriteImage: opts.WriteImage, WriteRef: opts.WriteRef})
	var first error
	for i := range impls {
		im := &impls[i]
		if len(im.Readbacks) == 0 {
			continue
		}
		if err := c.Check(im, max(im.ImageRuns, 1), im.Unstable); err != nil && first == nil {
			first = err
		}
	}
	var ranked []*model.Implementation
	for _, i := range model.RankImplementations(impls) {
		if len(impls[i].Images) > 0 {
			ranked = append(ranked, &impls[i])
		}
	}
	if len(ranked) > 1 {
		c.Parity(ranked[0], ranked[1:])
	}
	return first
}

// imageFixtures are the fixtures of cases that have images, which a
// repeat sends again; nil when no repeat was asked for.
func imageFixtures(cfg Config, cases []testCase, read ReadFunc) map[string]bool {
	if cfg.Repeat < 2 {
		return nil
	}
	c := level3.New(level3.Options{Read: read})
	out := map[string]bool{}
	for i := range cases {
		if rel := cases[i].base.RelPath; cases[i].base.Class == model.ClassPositive && c.Describes(rel) {
			out[rel] = true
		}
	}
	return out
}

// repeat sends a fixture that passed with readbacks Repeat-1 more times,
// every other attempt in a fresh process, and records the readbacks that
// differ from the first attempt's: a nondeterministic image is never
// compared or kept as a reference. An attempt that does not pass Level 2
// differs in all of them. The first attempt's result and bytes stand.
func (s *session) repeat(c *testCase) {
	rel := c.base.RelPath
	first, ok := s.impl.Readbacks[rel]
	if !ok {
		return
	}
	if s.impl.Unstable == nil {
		s.impl.Unstable = map[string][]int{}
	}
	s.impl.ImageRuns = s.cfg.Repeat
	var differ []int
	for n := 1; n < s.cfg.Repeat && s.stopped == "" && s.ctx.Err() == nil; n++ {
		if n%2 == 0 {
			s.endProcess()
		}
		delete(s.impl.Readbacks, rel)
		res := s.attempt(c)
		got, kept := s.impl.Readbacks[rel]
		for k := range first {
			if !res.Passed || !kept || k >= len(got) || !bytes.Equal(got[k], first[k]) {
				if !slices.Contains(differ, k) {
					differ = append(differ, k)
				}
			}
		}
	}
	s.impl.Readbacks[rel] = first
	s.impl.Level2[rel] = true
	if len(differ) > 0 {
		slices.Sort(differ)
		s.impl.Unstable[rel] = differ
	}
}
