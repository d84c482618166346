//go:build !linux

package harness

// becomeSubreaper does nothing where the kernel has no subreapers: an
// implementation's child that left its process group outlives it there.
func becomeSubreaper() {}

// endOrphans has no orphans to end where there is no subreaper.
func endOrphans() {}
