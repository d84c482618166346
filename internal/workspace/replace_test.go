package workspace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killedWriterDir is set in the environment of the writer process that
// TestReplaceSurvivesSIGKILL kills: the workspace it writes a report in.
const killedWriterDir = "DRP2_TEST_KILLED_WRITER_DIR"

// reportOf is a report of about size bytes, valid JSON, that says which
// generation it is all through, so that a mix of two is seen.
func reportOf(generation string, size int) []byte {
	// Spelt out: %q over megabytes would take the writer seconds.
	return []byte(`{"generation":"` + generation + `","pad":"` + strings.Repeat(generation, size/len(generation)) + "\"}\n")
}

// A process killed (SIGKILL) at any moment of a report's write leaves the
// previous report whole or the new one whole: never an empty file, a
// prefix of the new one, or a mix. The writer is this test binary run
// again, writing reports of 2 MB one after the other until it is killed,
// at 50 moments spread over its writes.
func TestReplaceSurvivesSIGKILL(t *testing.T) {
	const size = 2 << 20
	generations := []string{"old", "new-a", "new-b"}
	if dir := os.Getenv(killedWriterDir); dir != "" {
		ws := New(dir, true)
		reports := [][]byte{reportOf(generations[1], size), reportOf(generations[2], size)}
		fmt.Println("writing")
		for i := 0; ; i++ {
			if err := ws.WriteFile("out/report.json", reports[i%2]); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
	}
	if testing.Short() {
		t.Skip("SKIPPED: starts 50 processes")
	}
	dir := t.TempDir()
	ws := New(dir, true)
	if err := ws.WriteFile("out/report.json", reportOf("old", size)); err != nil {
		t.Fatal(err)
	}
	whole := map[string][]byte{}
	for _, g := range generations {
		whole[g] = reportOf(g, size)
	}
	midWrite, broken := 0, 0
	for i := range 50 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestReplaceSurvivesSIGKILL$")
		cmd.Env = append(os.Environ(), killedWriterDir+"="+dir)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "writing\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the writer did not start: %q %v\n%s", line, err, stderr.String())
		}
		// From the start of the first write to well into the fourth.
		time.Sleep(time.Duration(i)*time.Millisecond + rand.N(time.Millisecond))
		cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("kill %d: the writer ended otherwise: %v\n%s", i, err, stderr.String())
		}
		got, err := os.ReadFile(filepath.Join(dir, "out/report.json"))
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		var doc struct{ Generation string }
		if err := json.Unmarshal(got, &doc); err != nil || !bytes.Equal(got, whole[doc.Generation]) {
			broken++
			t.Errorf("kill %d after %v: the report is neither the previous one nor the new one whole: %d bytes, %.60q (%v)",
				i, time.Duration(i)*time.Millisecond, len(got), got, err)
		}
		temps, _ := filepath.Glob(filepath.Join(dir, "out/.report.json.tmp-*"))
		if len(temps) > 0 {
			midWrite++
			for _, tmp := range temps {
				os.Remove(tmp)
			}
		}
	}
	t.Logf("50 kills, %d of them while a new report was being written, %d left a broken report", midWrite, broken)
	if midWrite == 0 {
		t.Errorf("no kill fell during a write: the test tests nothing")
	}
}

// A write that fails part-way (the disk fills) leaves the previous report
// as it was and no temporary file, and says which file and why.
func TestReplaceFailedWriteKeepsPrevious(t *testing.T) {
	dir := t.TempDir()
	ws := New(dir, true)
	if err := ws.WriteFile("report.json", []byte(`{"previous":true}`)); err != nil {
		t.Fatal(err)
	}
	defer func(w func(*os.File) io.Writer) { fileWriter = w }(fileWriter)
	fileWriter = func(f *os.File) io.Writer { return &fullDisk{f: f, room: 1} }
	err := ws.WriteFile("report.json", bytes.Repeat([]byte("x"), 1<<20))
	if err == nil || err.Error() != "write report.json: no space left on device (the previous file is kept whole)" || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "report.json")); string(got) != `{"previous":true}` {
		t.Errorf("the previous report is now %.40q", got)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, ".*")); len(names) > 0 {
		t.Errorf("temporary files left: %v", names)
	}
	// A new file that could not be written is not there at all.
	if err := ws.WriteFile("new.json", []byte("{}")); err == nil || strings.Contains(err.Error(), "kept") {
		t.Errorf("error: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "new.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a report that could not be written is there: %v", err)
	}
}

// On a file system that is really full (a tmpfs of 64 KiB, where the test
// may mount one), a report too large for it fails and the previous one is
// kept.
func TestReplaceOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).Run(); err != nil {
		t.Skipf("SKIPPED: cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	ws := New(dir, true)
	previous := reportOf("previous", 16<<10)
	if err := ws.WriteFile("report.json", previous); err != nil {
		t.Fatal(err)
	}
	err := ws.WriteFile("report.json", reportOf("next", 200<<10))
	if err == nil || !strings.Contains(err.Error(), "report.json: no space left on device") {
		t.Errorf("error: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "report.json")); !bytes.Equal(got, previous) {
		t.Errorf("the previous report is now %d bytes, %.40q", len(got), got)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, ".*")); len(names) > 0 {
		t.Errorf("temporary files left: %v", names)
	}
	// With the space freed, the report is written.
	if err := ws.WriteFile("report.json", reportOf("next", 20<<10)); err != nil {
		t.Errorf("once there is room: %v", err)
	}
}

// A link that appears at the report's name between the check and the
// rename is replaced itself: its target is never written.
func TestReplaceOverALinkReplacesTheLink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "victim")
	write(t, target, "untouched")
	if err := os.Symlink(target, filepath.Join(dir, "report.json")); err != nil {
		t.Skipf("SKIPPED: symlink: %v", err)
	}
	// Through the workspace the link is refused, as before.
	if err := New(dir, true).WriteFile("report.json", []byte("x")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link at the report's name: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := replace(root, "report.json", "report.json", bytesOf([]byte("new"))); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "untouched" {
		t.Errorf("the link's target was written: %q", got)
	}
	if st, err := os.Lstat(filepath.Join(dir, "report.json")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the link was not replaced by the report: %v %v", st, err)
	}
}

// Outside the workspace the user's paths are taken as given: a link the
// user made is followed and its target replaced, a device is written to,
// and a replaced file keeps its permissions.
func TestReplaceOutsideTheWorkspace(t *testing.T) {
	dir := t.TempDir()
	ws := New(t.TempDir(), false)
	target := filepath.Join(dir, "kept.json")
	write(t, target, "old")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("kept.json", link); err != nil {
		t.Skipf("SKIPPED: symlink: %v", err)
	}
	if err := ws.WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("the link's target holds %q", got)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the user's link was replaced: %v %v", st, err)
	}
	if st, err := os.Stat(target); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the replaced file's permissions: %v %v", st, err)
	}
	if err := ws.WriteFile(os.DevNull, []byte("x")); err != nil {
		t.Errorf("%s: %v", os.DevNull, err)
	}
	// A name near the limit still has room for its temporary file's.
	long := filepath.Join(dir, "a"+strings.Repeat("é", 126))
	if err := ws.WriteFile(long, []byte("long")); err != nil {
		t.Errorf("a name of 253 bytes: %v", err)
	}
}

// fullDisk takes room bytes into f, then fails as a full disk does.
type fullDisk struct {
	f    *os.File
	room int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) > d.room {
		n, _ := d.f.Write(p[:d.room])
		d.room = 0
		return n, &os.PathError{Op: "write", Path: d.f.Name(), Err: syscall.ENOSPC}
	}
	d.room -= len(p)
	return d.f.Write(p)
}

// A report streamed to its file (WriteFileFrom) in many small writes is
// replaced whole: on a full disk, part-way, the previous file is kept and
// no temporary file is left; an error of the writer's own does the same
// and is returned; and once the disk has room, the file holds every write.
func TestReplaceStreamed(t *testing.T) {
	dir := t.TempDir()
	ws := New(dir, true)
	if err := ws.WriteFile("report.json", []byte(`{"previous":true}`)); err != nil {
		t.Fatal(err)
	}
	lines := func(w io.Writer) error {
		for i := range 100000 {
			if _, err := fmt.Fprintf(w, "line %d\n", i); err != nil {
				return err
			}
		}
		return nil
	}
	defer func(w func(*os.File) io.Writer) { fileWriter = w }(fileWriter)
	fileWriter = func(f *os.File) io.Writer { return &fullDisk{f: f, room: 300 << 10} }
	err := ws.WriteFileFrom("report.json", lines)
	if err == nil || err.Error() != "write report.json: no space left on device (the previous file is kept whole)" || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error: %v", err)
	}
	rendering := errors.New("the renderer failed")
	err = ws.WriteFileFrom("report.json", func(w io.Writer) error {
		fmt.Fprint(w, "half a report")
		return rendering
	})
	if !errors.Is(err, rendering) || !strings.Contains(err.Error(), "report.json") {
		t.Errorf("error: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "report.json")); string(got) != `{"previous":true}` {
		t.Errorf("the previous report is now %.40q", got)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, ".*")); len(names) > 0 {
		t.Errorf("temporary files left: %v", names)
	}
	fileWriter = func(f *os.File) io.Writer { return f }
	if err := ws.WriteFileFrom("report.json", lines); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	lines(&want)
	if got, _ := os.ReadFile(filepath.Join(dir, "report.json")); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the report is %d bytes, want %d", len(got), want.Len())
	}
}
