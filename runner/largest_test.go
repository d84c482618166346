package runner

import (
	"strings"
	"sync"
	"testing"
)

// TestLargestFixture: a run tells LargestFixture each fixture size larger
// than any before it, in increasing order and ending at the largest file,
// with several workers reading at once, so that main's memory limit grows
// with the largest fixture and never shrinks.
func TestLargestFixture(t *testing.T) {
	files := map[string]string{}
	largest := 0
	for i, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		// Names ordered apart from sizes: padding in the name member.
		pad := strings.Repeat("x", (i*37)%8*100)
		data := fixtureJSON(name+pad, success, hello, reply)
		files["positive/"+name+".json"] = data
		largest = max(largest, len(data))
	}
	root := writeCorpus(t, files)
	for _, workers := range []int{1, 4} {
		var mu sync.Mutex
		var told []int64
		runCorpus(t, Config{Corpus: root, Workers: workers, LargestFixture: func(n int64) {
			mu.Lock()
			defer mu.Unlock()
			told = append(told, n)
		}})
		if len(told) == 0 || told[len(told)-1] != int64(largest) {
			t.Fatalf("%d workers: told %v, want it to end at the largest file's %d bytes", workers, told, largest)
		}
		for i := 1; i < len(told); i++ {
			if told[i] <= told[i-1] {
				t.Errorf("%d workers: told %v, not increasing", workers, told)
			}
		}
	}
	// A run that asks nothing, and a job without the watch, read as before.
	runCorpus(t, Config{Corpus: root})
	var none *largestSeen
	none.saw(1)
}
