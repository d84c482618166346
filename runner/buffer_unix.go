//go:build unix && !heapfixtures

package runner

import (
	"encoding/json"
	"sync"
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
// A memory limit does not make up for it; scripts/bench --memory measures
// this build against one with -tags heapfixtures (buffer_other.go on
// unix) under one GOMEMLIMIT. On the 2-core CI machine, loaded, four runs
// each: under the binary's own limit of 112 MiB the heap spent 14.7-17.5 s
// of processor time on the 1,000,000-command stream (here 5.7-6.6 s) and
// 8.6-11.0 s on the create/write/destroy stream (here 4.0-4.5 s; the
// target is 4 s), for a lower peak on the first (179-185 MB, here 216-224
// MB) and the same on the second. At 224 MiB it came close
// (5.6-7.5 s and 4.1-5.4 s, here 5.4-7.0 s and 3.3-4.8 s), but the limit
// is the whole process's: the 50,000-fixture run then peaked at 220-231
// MB instead of 116-119 MB.
//
// free must be called only when nothing refers to the memory any more: the
// runner keeps no slice of a fixture's bytes past its run (results hold
// copies), and a Checker must not retain the stream's commands after Check
// returns. The index holds pointers only into the fixture's bytes, which
// are outside the heap too, so the collector has nothing to find in it.
// TestVerdictsDoNotDependOnEarlierFixtures holds the runner to it.
type fixtureMemory struct {
	maps   [][]byte
	data   []byte  // the mapping that holds the file, if any
	pooled *[]byte // the small file's buffer, if it came from smallFiles
}

// smallFiles holds buffers for files of at most smallFileMax bytes, the
// most of a corpus: a run reuses a few of them instead of making and
// clearing one per file. The same rule as for mappings makes it safe.
var smallFiles = sync.Pool{New: func() any { b := make([]byte, 0, smallFileMax+1); return &b }}

const smallFileMax = 64 << 10

// mmap maps n bytes of memory, with room for n only: only the pages
// written become resident (MAP_NORESERVE), and those in pages of 2 MiB
// where the system allows it (MADV_HUGEPAGE). The kernel takes a fault per
// page on first write: a 92 MB stream in pages of 4 KiB took some 23,000
// of them, in huge pages a few dozen.
func (m *fixtureMemory) mmap(n int) []byte {
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|mapNoReserve)
	if err != nil {
		return nil
	}
	adviseHugePages(mem)
	m.maps = append(m.maps, mem)
	return mem
}

// fileBuffer returns a zero-length buffer of capacity at least n for the
// file.
func (m *fixtureMemory) fileBuffer(n int64) []byte {
	if n <= smallFileMax+1 && m.pooled == nil {
		m.pooled = smallFiles.Get().(*[]byte)
		return (*m.pooled)[:0]
	}
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

// elementOffsets returns an empty buffer for the offsets of the elements
// jsonpos.Check records in data, outside the heap when data is, with room
// for as many as data can hold: an element and the comma after it take two
// bytes at least, so at most len(data)+2 offsets. On the heap the buffer
// grew by a quarter at a time, copying itself each time: for a million
// commands some 40 MB made and copied, and two collections that waited on
// the copies. It returns nil when data is on the heap.
func (m *fixtureMemory) elementOffsets(data []byte) []uint32 {
	if len(data) == 0 || len(m.data) == 0 || unsafe.SliceData(data) != unsafe.SliceData(m.data) {
		return nil
	}
	n := len(data) + 2
	mem := m.mmap(n * 4)
	if mem == nil {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(mem))), n)[:0]
}

// free unmaps everything and gives the small file's buffer back.
func (m *fixtureMemory) free() {
	for _, mem := range m.maps {
		_ = syscall.Munmap(mem)
	}
	if m.pooled != nil {
		smallFiles.Put(m.pooled)
	}
	m.maps, m.data, m.pooled = nil, nil, nil
}
