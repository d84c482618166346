package harness

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// becomeSubreaper makes this process the reaper of its descendants'
// orphans. A child that an implementation started in a session or
// process group of its own (setsid) is not ended with the
// implementation's group; when the implementation ends, the kernel hands
// such an orphan to the nearest subreaper instead of init, where
// endOrphans finds it. Without the right to be one (no such kernel), the
// orphans go to init as before.
var becomeSubreaper = sync.OnceFunc(func() {
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
})

// orphanSweepTime bounds endOrphans: an interrupted run has a few seconds
// in all before a runner kills it, and the reports still to write.
const orphanSweepTime = 2 * time.Second

// endOrphans kills and reaps every orphan this process adopted as a
// subreaper: each child that it did not start itself (not in running)
// and that is not in its own process group, with that child's group, and
// again for what those leave behind, until none is left or the sweep's
// time is up. The only processes the harness starts outside its own group
// are implementations, so such a child is what an implementation left.
func endOrphans() {
	running.Lock()
	defer running.Unlock()
	self, group := os.Getpid(), syscall.Getpgrp()
	deadline := time.Now().Add(orphanSweepTime)
	for time.Now().Before(deadline) {
		orphans := adopted(self, group)
		if len(orphans) == 0 {
			return
		}
		for _, o := range orphans {
			// Its group first: what it started since is in it, unless
			// it too left, and then it is adopted in a later round.
			_ = syscall.Kill(-o.group, syscall.SIGKILL)
			_ = syscall.Kill(o.pid, syscall.SIGKILL)
		}
		for _, o := range orphans {
			reap(o.pid, deadline)
		}
	}
}

// orphan is an adopted child and its process group.
type orphan struct{ pid, group int }

// adopted lists the children of self, by /proc, that are orphans: not in
// group, not running implementations nor in their groups. The caller
// holds running's lock.
func adopted(self, group int) []orphan {
	var out []orphan
	eachProcess(func(pid, parent, pgrp int) {
		if parent == self && pgrp != group && !running.pids[pid] && !running.pids[pgrp] {
			out = append(out, orphan{pid: pid, group: pgrp})
		}
	})
	return out
}

// eachProcess calls fn with the id, parent and process group of every
// process /proc lists (none when /proc cannot be read).
func eachProcess(fn func(pid, parent, group int)) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat := procStat(e.Name())
		if stat == nil {
			continue
		}
		// After the name in parentheses: state, parent, process group.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 3 {
			continue
		}
		parent, _ := strconv.Atoi(fields[1])
		pgrp, _ := strconv.Atoi(fields[2])
		fn(pid, parent, pgrp)
	}
}

// procStat is the kernel's status line of the process pid, from
// /proc/PID/stat (the kernel's file, not an input: read with a system call
// of its own); nil when the process is gone.
func procStat(pid string) []byte {
	fd, err := syscall.Open("/proc/"+pid+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	// The line is a few hundred bytes: a name of at most 64 and numbers.
	buf := make([]byte, 4096)
	n, err := syscall.Read(fd, buf)
	if err != nil || n <= 0 || bytes.LastIndexByte(buf[:n], ')') < 0 {
		return nil
	}
	return buf[:n]
}

// reap waits for the killed orphan pid until deadline, so that it does
// not stay a zombie in the process table.
func reap(pid int, deadline time.Time) {
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if got == pid || err != nil || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
