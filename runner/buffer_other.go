//go:build !unix

package runner

// fileBuffer returns a heap buffer of capacity n; only unix systems get the
// off-heap buffers of buffer_unix.go.
func fileBuffer(n int64) (buf []byte, free func()) {
	return make([]byte, 0, n), func() {}
}
