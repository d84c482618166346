//go:build unix

package runner

import "syscall"

// offHeapMin is the smallest file read into memory outside the Go heap.
// Smaller files are not worth two system calls each.
const offHeapMin = 4 << 20

// fileBuffer returns a zero-length buffer of capacity n for a fixture's
// bytes, and the function that frees it.
//
// A large fixture is read into memory mapped outside the Go heap. On the
// heap, a 92 MB stream would count towards the collector's goal, which lets
// the heap grow to twice what is live: the file's bytes would cost about
// twice their size in resident memory while its commands are checked.
// Outside the heap they cost their size once. free must be called only
// when nothing refers to the buffer any more: the runner keeps no slice of
// a fixture's bytes past its run (results hold copies), and a Checker must
// not retain the stream's commands after Check returns.
func fileBuffer(n int64) (buf []byte, free func()) {
	if n < offHeapMin || n > int64(^uint(0)>>1) {
		return make([]byte, 0, n), func() {}
	}
	mem, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, 0, n), func() {}
	}
	return mem[:0], func() { _ = syscall.Munmap(mem) }
}
