//go:build unix && !heapfixtures

package runner

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
)

// longStream is a fixture of n commands, read into mem as the runner reads
// a file: outside the heap once it is offHeapMin or more.
func longStream(t *testing.T, mem *fixtureMemory, n int) []byte {
	t.Helper()
	cmds := make([]string, 0, n)
	cmds = append(cmds, hello, reply)
	for i := len(cmds); i < n; i++ {
		cmds = append(cmds, fmt.Sprintf(`{"cmd": "CreateBuffer", "id": %d, "size": 256, "usage": ["VERTEX"]}`, 1000+i))
	}
	text := fixtureJSON("long", success, cmds...)
	data := append(mem.fileBuffer(int64(len(text))), text...)
	if len(data) < offHeapMin || unsafe.SliceData(data) != unsafe.SliceData(mem.data) {
		t.Fatalf("a stream of %d bytes was not read outside the heap", len(data))
	}
	return data
}

// TestLongStreamOffsetsDoNotGrow: the offsets of a long stream's commands
// are recorded outside the heap, in a buffer that never grows, and index
// the same commands ValuesN finds. On the heap, the buffer of 100,000
// commands grew by a quarter at a time: some 4 MB made and copied.
func TestLongStreamOffsetsDoNotGrow(t *testing.T) {
	var mem fixtureMemory
	defer mem.free()
	const n = 100_000
	data := longStream(t, &mem, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fx, cerr := decodeFixture(data, &mem)
	runtime.ReadMemStats(&after)
	if cerr != nil {
		t.Fatal(cerr.msg)
	}
	// What remains on the heap is the envelope's: its view of the first
	// envelopeCommands commands, their stand-ins and the members.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("decoding %d commands allocated %d bytes on the heap", n, grew)
	}
	raw, _ := fx.member("commands")
	want, ok := jsonpos.ValuesN(raw, n, nil)
	if !ok || len(fx.commands) != n {
		t.Fatalf("%d commands indexed, want %d (%v)", len(fx.commands), n, ok)
	}
	for k := range want {
		if !bytes.Equal(fx.commands[k], want[k]) {
			t.Fatalf("command %d is %q, ValuesN's %q", k, fx.commands[k], want[k])
		}
	}
}

// TestLargeFilesAdviseHugePages: where the system gives huge pages only to
// mappings that ask for them, a large file's mapping asks. Faulting in 92
// MB a page of 4 KiB at a time cost a long stream more processor time in
// the kernel than its whole read.
func TestLargeFilesAdviseHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		t.Skipf("transparent huge pages are not given on advice here (%q, %v)", mode, err)
	}
	var mem fixtureMemory
	defer mem.free()
	data := longStream(t, &mem, 100_000)
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	var inside bool
	for line := range strings.Lines(string(smaps)) {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 {
			inside = lo <= addr && addr < hi
			continue
		}
		if inside && strings.HasPrefix(line, "THPeligible:") {
			if strings.TrimSpace(strings.TrimPrefix(line, "THPeligible:")) != "1" {
				t.Fatalf("the mapping of a %d-byte file is not eligible for huge pages: %s", len(data), line)
			}
			return
		}
	}
	t.Skip("smaps says nothing of huge pages for the mapping")
}
