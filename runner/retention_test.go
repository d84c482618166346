package runner

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// TestVerdictsDoNotDependOnEarlierFixtures: a fixture gets the same result
// run alone as after other fixtures in one run. Large fixtures are read
// into memory the runner releases after each one and may reuse for the
// next; what outlives a fixture (the verdict caches, what the checker
// returns) must be copies, or a later fixture would meet the bytes of an
// earlier one under its own cached keys, or memory no longer there. The
// large fixtures share every command but one, at the same place in files
// of one size; the small one repeats a command of theirs that is cached
// by its bytes (16.0 has no shape key).
//
// Small fixtures are read into buffers the runner reuses: the same holds
// for them, at a size under smallFileMax.
func TestVerdictsDoNotDependOnEarlierFixtures(t *testing.T) {
	for _, size := range []int{5 << 20, 16 << 10} { // over offHeapMin, under smallFileMax
		t.Run(fmt.Sprint(size), func(t *testing.T) { verdictsDoNotDependOnEarlierFixtures(t, size) })
	}
}

func verdictsDoNotDependOnEarlierFixtures(t *testing.T, fileSize int) {
	buffer := strings.Replace(buffer, `"size": 16`, `"size": 16.0`, 1)
	write := `{"cmd": "WriteBuffer", "buffer_id": 1, "offset": 0, "size": 4, "data": "AAAAAA=="}`
	var commands []string
	for size := 0; size < fileSize; size += len(write) + 6 {
		commands = append(commands, write)
	}
	k := len(commands) / 2
	with := func(i int, c string) []string {
		cmds := append([]string{hello, reply, buffer}, commands...)
		cmds[3+i] = c
		return cmds
	}
	files := map[string]string{
		"positive/a.json": fixtureJSON("a", success, with(k, write)...),
		// The same length as write, schema-invalid.
		"negative_schema/b.json": fixtureJSON("b", schemaError(3+k), with(k, strings.Replace(write, `"offset": 0,`, `"offset":-1,`, 1))...),
		// The same length as write, writing past the end of the buffer.
		"negative/c.json": fixtureJSON("c", semanticError("DRP2_ERR_OUT_OF_RANGE", 3+k), with(k, strings.Replace(write, `"offset": 0,`, `"offset":99,`, 1))...),
		"positive/d.json": fixtureJSON("d", success, hello, reply, buffer, write),
	}
	root := writeCorpus(t, files)
	result := func(r any) string {
		b, _ := json.Marshal(r)
		return string(b)
	}
	alone := map[string]string{}
	for rel := range files {
		run := runCorpus(t, Config{Corpus: root, Paths: []string{rel}, Checker: drp2.New(), Workers: 1})
		if len(run.Results) != 1 {
			t.Fatalf("%s: %d results", rel, len(run.Results))
		}
		r := run.Results[0]
		if !r.Passed {
			t.Errorf("%s alone: %+v", rel, r.Actual)
		}
		r.Duration = 0
		alone[rel] = result(r)
	}
	for range 3 {
		run := runCorpus(t, Config{Corpus: root, Checker: drp2.New(), Workers: 1})
		if len(run.Results) != len(files) {
			t.Fatalf("%d results", len(run.Results))
		}
		for _, r := range run.Results {
			r.Duration = 0
			if got := result(r); got != alone[r.RelPath] {
				t.Errorf("%s after other fixtures:\n%s\nalone:\n%s", r.RelPath, got, alone[r.RelPath])
			}
		}
	}
}
