//go:build !unix

package runner

import "encoding/json"

// fixtureMemory allocates on the heap; only unix systems get the off-heap
// memory of buffer_unix.go.
type fixtureMemory struct{}

func (m *fixtureMemory) fileBuffer(n int64) []byte { return make([]byte, 0, n) }

func (m *fixtureMemory) commandIndex(data []byte, n int) []json.RawMessage {
	return make([]json.RawMessage, 0, n)
}

func (m *fixtureMemory) free() {}
