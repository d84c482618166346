//go:build !linux

package harness

// treeMemory cannot measure where there is no /proc: an implementation's
// memory_limit is not watched there.
func treeMemory(int, bool) (int64, []int, bool) { return 0, nil, false }

// killPids has nothing to kill where nothing was measured.
func killPids([]int) {}
