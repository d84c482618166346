package harness

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// treeMemory is the memory of root and its descendants: the sum of their
// resident sets, or with proportional, of their proportional set sizes
// (shared pages counted once across them), with their pids, to kill. ok
// is false when root cannot be measured at all.
func treeMemory(root int, proportional bool) (total int64, pids []int, ok bool) {
	pids = processTree(root)
	for i, pid := range pids {
		n, measured := processMemory(pid, proportional)
		if i == 0 && !measured {
			return 0, nil, false
		}
		total += n
	}
	return total, pids, true
}

// childrenLists is whether the kernel keeps a list of each thread's
// children (CONFIG_PROC_CHILDREN, on in the kernels of Debian, Ubuntu and
// GitHub's runners).
var childrenLists = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children")
	return err == nil
})

// processTree lists root and the processes below it, from the kernel's
// lists of each thread's children (/proc/PID/task/TID/children): the cost
// grows with the tree, never with the machine. Without those lists, from
// the parent of every process of /proc.
func processTree(root int) []int {
	if !childrenLists() {
		return scanTree(root)
	}
	pids := []int{}
	for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
		pids = append(pids, queue[0])
		queue = append(queue, childrenOf(queue[0])...)
	}
	return pids
}

// childrenOf lists the children of each thread of pid.
func childrenOf(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil // Gone.
	}
	var out []int
	var buf [4096]byte
	for _, t := range tasks {
		list := readProc(dir+t.Name()+"/children", buf[:])
		if len(list) == len(buf) {
			// Cut (a thread with hundreds of children: the rest go
			// unmeasured); the last number may be part of one.
			list = list[:max(0, bytes.LastIndexByte(list, ' '))]
		}
		for _, f := range strings.Fields(string(list)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// scanTree is processTree from the parents of all of /proc.
func scanTree(root int) []int {
	children := map[int][]int{}
	eachProcess(func(pid, parent, _ int) {
		children[parent] = append(children[parent], pid)
	})
	pids := []int{}
	for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
		pids = append(pids, queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	return pids
}

// processMemory is the resident set of pid, or its proportional set size
// where the kernel gives it (smaps_rollup, Linux 4.14 on); measured is
// false when the process is gone.
func processMemory(pid int, proportional bool) (n int64, measured bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	if proportional {
		// About 1 KB: a dozen lines of sums.
		var rollup [4096]byte
		for _, line := range strings.Split(string(readProc(dir+"smaps_rollup", rollup[:])), "\n") {
			if v, ok := strings.CutPrefix(line, "Pss:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				if err == nil {
					return kb << 10, true
				}
			}
		}
	}
	var buf [256]byte
	fields := strings.Fields(string(readProc(dir+"statm", buf[:])))
	if len(fields) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// readProc reads a small file of /proc into buf with one read, as the
// kernel writes it (a few dozen bytes a thread, measured several times a
// second): nil when it is gone.
func readProc(path string, buf []byte) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf)
	if err != nil || n <= 0 {
		return nil
	}
	return buf[:n]
}

// killPids kills each process by its id: an implementation's children in
// process groups of their own (a browser's) are not ended with its group.
func killPids(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
