//go:build unix && !heapfixtures

package runner

import (
	"encoding/json"
	"syscall"
	"unsafe"
)

// offHeapMin is the smallest file read into memory outside the Go heap.
// Smaller files are not worth the system calls.
const offHeapMin = 4 << 20

// fixtureMemory holds the large allocations of one fixture outside the Go
// heap: its bytes and the index of its commands.
//
// On the heap, a 92 MB stream and its 24 MB index would count towards the
// collector's goal, which lets the heap grow to about twice what is live:
// they would cost about twice their size in resident memory while the
// commands are checked. Outside the heap they cost their size once.
//
// free must be called only when nothing refers to the memory any more: the
// runner keeps no slice of a fixture's bytes past its run (results hold
// copies), and a Checker must not retain the stream's commands after Check
// returns. The index holds pointers only into the fixture's bytes, which
// are outside the heap too, so the collector has nothing to find in it.
type fixtureMemory struct {
	maps [][]byte
	data []byte // the mapping that holds the file, if any
}

func (m *fixtureMemory) mmap(n int) []byte {
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	m.maps = append(m.maps, mem)
	return mem
}

// fileBuffer returns a zero-length buffer of capacity n for the file.
func (m *fixtureMemory) fileBuffer(n int64) []byte {
	if n < offHeapMin || n > int64(^uint(0)>>1) {
		return make([]byte, 0, n)
	}
	mem := m.mmap(int(n))
	if mem == nil {
		return make([]byte, 0, n)
	}
	m.data = mem
	return mem[:0]
}

// commandIndex returns an index of capacity n for commands that are slices
// of data: outside the heap when data is, else on it.
func (m *fixtureMemory) commandIndex(data []byte, n int) []json.RawMessage {
	if n == 0 || len(data) == 0 || len(m.data) == 0 || unsafe.SliceData(data) != unsafe.SliceData(m.data) {
		return make([]json.RawMessage, 0, n)
	}
	size := unsafe.Sizeof(json.RawMessage(nil))
	mem := m.mmap(n * int(size))
	if mem == nil {
		return make([]json.RawMessage, 0, n)
	}
	return unsafe.Slice((*json.RawMessage)(unsafe.Pointer(unsafe.SliceData(mem))), n)[:0]
}

// free unmaps everything.
func (m *fixtureMemory) free() {
	for _, mem := range m.maps {
		_ = syscall.Munmap(mem)
	}
	m.maps, m.data = nil, nil
}
