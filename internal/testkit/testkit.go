// Package testkit holds the test helpers the packages share: the DRP2
// handshake, a fixture builder, a corpus writer and txtar archives (the
// format of the whole-pipeline goldens), the corpora the front ends' tests
// run, the job sandbox (a workspace laid out as GitHub lays it out for a
// Docker action step) and the shared half of the script runner. It is
// imported by tests only, and imports nothing of the module.
package testkit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Hello and Reply open every DRP2 session: the two commands a fixture's
// stream starts with.
const (
	Hello = `{"cmd": "HelloRenderer", "version": {"major": 2, "minor": 0}, "client_name": "t"}`
	Reply = `{"cmd": "RendererHelloReply", "version": {"major": 2, "minor": 0}, "status": "ok", "renderer_name": "t"}`
)

// Handshake is Hello and Reply as two elements of a commands array.
const Handshake = Hello + ",\n    " + Reply

// Success is the expected block of a positive fixture.
const Success = `{"outcome": "success"}`

// Fixture is a DRP2 2.0 fixture file with the given name, expected block
// and commands (each a JSON object), tagged "t". Extra holds more
// top-level members, written as `"key": value` pairs separated by commas
// (or empty).
func Fixture(name, expected string, commands ...string) string {
	return FixtureWith(name, expected, "", commands...)
}

// FixtureWith is Fixture with extra top-level members.
func FixtureWith(name, expected, extra string, commands ...string) string {
	if extra != "" {
		extra = "\n  " + extra + ","
	}
	return fmt.Sprintf(`{
  "name": %q,
  "description": "a test fixture",%s
  "version": {"major": 2, "minor": 0},
  "tags": ["t"],
  "commands": [
    %s
  ],
  "expected": %s
}
`, name, extra, strings.Join(commands, ",\n    "), expected)
}

// Error is the expected block of a negative fixture.
func Error(phase, code string, index int) string {
	return fmt.Sprintf(`{"outcome": "error", "phase": %q, "code": %q, "command_index": %d}`, phase, code, index)
}

// WriteFiles writes files (slash-separated paths relative to root, to
// their contents) below root, creating folders.
func WriteFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Corpus writes files into a new temporary folder and returns it.
func Corpus(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	WriteFiles(t, root, files)
	return root
}

// Merge returns one map holding the entries of every map, later ones
// winning.
func Merge(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// Archive is a txtar archive: a comment, then named files.
type Archive struct {
	Comment []byte
	Files   []File
}

// File is one member of an archive.
type File struct {
	Name string
	Data []byte
}

// ParseArchive reads a txtar archive. A line is a file marker only when it
// starts with "-- ", ends with " --" and names something in between.
func ParseArchive(data []byte) *Archive {
	a := &Archive{}
	cur := &a.Comment
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := marker(line); ok {
			a.Files = append(a.Files, File{Name: name})
			cur = &a.Files[len(a.Files)-1].Data
			continue
		}
		*cur = append(*cur, line...)
	}
	return a
}

func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

// Format writes the archive back; a member that does not end its last
// line gets a newline.
func (a *Archive) Format() []byte {
	var b bytes.Buffer
	b.Write(a.Comment)
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(f.Data)
		if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// File returns the data of the member named name, and whether there is
// one.
func (a *Archive) File(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the member named name, or appends it.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}

// PythonExample is the command line of the example adapter in
// examples/python, or a skip where Python is missing (it is present in CI,
// where a skip fails).
func PythonExample(t testing.TB) string {
	t.Helper()
	file := PythonFile(t, "drp2_adapter.py")
	return ShellQuote(pythonInterpreter()) + " " + ShellQuote(file)
}

// PythonFile is the absolute path of a file in examples/python, or a skip
// where python3 is missing (it is present in CI, where a skip fails).
func PythonFile(t testing.TB, name string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is missing: .ci/run installs it")
		}
		t.Skip("SKIPPED: python3 not found")
	}
	// This file's folder is internal/testkit, whoever calls.
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "examples", "python", name)
}

var python struct {
	once sync.Once
	path string
}

// pythonInterpreter is the interpreter that python3 runs, asked once: a
// version manager's python3 can be a shim (pyenv's is a shell script that
// starts several more before Python does), which costs more each time the
// example starts than the example's whole work in a test, and the tests
// start it often. Where the question fails, it is python3 itself.
func pythonInterpreter() string {
	python.once.Do(func() {
		python.path = "python3"
		out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
		if p := strings.TrimSpace(string(out)); err == nil && filepath.IsAbs(p) {
			python.path = p
		}
	})
	return python.path
}

// ShellQuote quotes s as one word of a command line (sh, and the harness).
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
