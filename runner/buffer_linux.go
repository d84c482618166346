//go:build linux && !heapfixtures

package runner

import "syscall"

// Linux reserves no swap for a mapping made with MAP_NORESERVE.
const mapNoReserve = syscall.MAP_NORESERVE

// adviseHugePages asks for mem to be backed by pages of 2 MiB, which Linux
// does when transparent huge pages are enabled for advised mappings (the
// default) or for all.
func adviseHugePages(mem []byte) { _ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE) }
