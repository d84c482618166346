//go:build !linux

package secret

// Hide does nothing where the kernel does not show a process's
// environment to other processes as Linux does.
func Hide() error { return nil }
