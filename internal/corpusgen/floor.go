package corpusgen

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// FloorResult is what Floor did: the files and bytes read, and how many of
// the files were not valid JSON.
type FloorResult struct {
	Files, Invalid int
	Bytes          int64
}

// Floor is the least work any gate must do on a corpus: read each .json
// file below root once and check its syntax once (json.Valid), on workers
// goroutines. The benchmark runs it beside the gate on the same input, in
// the same conditions, and reports the gate's cost as a ratio to it: a
// ratio says how far the gate is from reading its input once, whatever the
// machine's speed and load at the time.
func Floor(root string, workers int) (FloorResult, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return FloorResult{}, err
	}
	workers = max(1, min(workers, len(files)))
	var (
		mu    sync.Mutex
		total FloorResult
		first error
		wg    sync.WaitGroup
		next  = make(chan string)
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r FloorResult
			for p := range next {
				data, err := os.ReadFile(p)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					continue
				}
				r.Files++
				r.Bytes += int64(len(data))
				if !json.Valid(data) {
					r.Invalid++
				}
			}
			mu.Lock()
			total.Files += r.Files
			total.Bytes += r.Bytes
			total.Invalid += r.Invalid
			mu.Unlock()
		}()
	}
	for _, p := range files {
		next <- p
	}
	close(next)
	wg.Wait()
	if first != nil {
		return total, fmt.Errorf("floor: %w", first)
	}
	return total, nil
}
