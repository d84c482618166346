//go:build !unix || heapfixtures

package runner

import "encoding/json"

// fixtureMemory allocates on the heap: on systems other than unix, and
// with the build tag heapfixtures, which scripts/bench --memory uses to
// compare the heap with the off-heap memory of buffer_unix.go.
type fixtureMemory struct{}

func (m *fixtureMemory) fileBuffer(n int64) []byte { return make([]byte, 0, n) }

func (m *fixtureMemory) commandIndex(data []byte, n int) []json.RawMessage {
	return make([]json.RawMessage, 0, n)
}

func (m *fixtureMemory) elementOffsets([]byte) []uint32 { return nil }

func (m *fixtureMemory) free() {}
