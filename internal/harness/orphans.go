package harness

import (
	"os/exec"
	"sync"
)

// running holds the pids of the implementations' processes the harness
// started and has not waited for yet, so that the sweep of orphans
// (endOrphans) never takes one of them, or a member of its group, for an
// orphan. A process is started under the lock, so that no sweep sees it
// before it is known.
var running = struct {
	sync.Mutex
	pids map[int]bool
}{pids: map[int]bool{}}

// startTracked starts cmd and records it as running.
func startTracked(cmd *exec.Cmd) error {
	running.Lock()
	defer running.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	running.pids[cmd.Process.Pid] = true
	return nil
}

// untrack records that the process pid was waited for.
func untrack(pid int) {
	running.Lock()
	defer running.Unlock()
	delete(running.pids, pid)
}
