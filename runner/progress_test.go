package runner

import (
	"testing"
)

// TestProgressCounts: a run announces the fixtures its paths select and
// counts each as it is run, the failing ones (mismatches, corpus errors)
// as failed, as the summary does, and the ones the name filter leaves out
// as done, not failed.
func TestProgressCounts(t *testing.T) {
	root := writeCorpus(t, map[string]string{
		"positive/alpha.json":    fixtureJSON("alpha", success, hello, reply),
		"positive/broken.json":   `{"name": `,
		"negative/wrong.json":    fixtureJSON("wrong", semanticError("DRP2_ERR_USAGE", 1), hello, reply),
		"negative/alphabet.json": fixtureJSON("alphabet", semanticError("DRP2_ERR_USAGE", 2), hello, reply, buffer),
		"negative/other.json":    fixtureJSON("other", success, hello, reply),
	})
	for _, c := range []struct {
		name        string
		cfg         Config
		done, total int
	}{
		{"all", Config{}, 5, 5},
		{"a path", Config{Paths: []string{"positive"}}, 2, 2},
		{"a name", Config{Name: "alpha"}, 5, 5},
	} {
		p := &Progress{}
		sized := []int{}
		c.cfg.Corpus, c.cfg.Progress = root, p
		c.cfg.Sized = func(n int) { sized = append(sized, n) }
		run := runCorpus(t, c.cfg)
		done, total, failed := p.Counts()
		if done != c.done || total != c.total || failed != run.Summary.Failed || failed == 0 {
			t.Errorf("%s: %d/%d, %d failed; want %d/%d, %d failed", c.name, done, total, failed, c.done, c.total, run.Summary.Failed)
		}
		// Sized hears the total once, as main scales the memory limit.
		if len(sized) != 1 || sized[0] != c.total {
			t.Errorf("%s: Sized was told %v, want [%d]", c.name, sized, c.total)
		}
	}
	var none *Progress
	none.Add(1)
	none.Did(true)
	if d, n, f := none.Counts(); d+n+f != 0 {
		t.Errorf("a nil Progress counted")
	}
}
