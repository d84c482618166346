//go:build unix && !linux && !heapfixtures

package runner

// Elsewhere a mapping is made and backed as the system does by default.
const mapNoReserve = 0

func adviseHugePages([]byte) {}
