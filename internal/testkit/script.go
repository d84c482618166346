package testkit

// The script runner's shared half: a script is a txtar archive holding a
// workspace (a corpus and any input files), the command line or the
// action's inputs, and an event payload, and its want/ members are what
// every sink showed. The command line's and the action's tests each run
// their own scripts with these.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Members of a script archive that are not workspace files.
const (
	ScriptArgs   = "args"       // the command line, one argument a line
	ScriptEnv    = "env"        // KEY=VALUE lines over the defaults
	ScriptEvent  = "event.json" // the event payload (the action's default: pull request 7)
	ScriptFiles  = "files"      // report files the run writes in the workspace, one path a line
	ScriptFaults = "faults"     // refusals of the fake GitHub, "METHOD PATH STATUS BODY" a line
	// ScriptToolVersion is the version line the run records instead of
	// this test binary's "(devel)": what a release build shows.
	ScriptToolVersion = "tool-version"
	ScriptWant        = "want/" // the golden members
)

// RunScripts runs every script the glob matches as a subtest: run returns
// its want/ members. With update they replace the archive's want/
// members; otherwise each must equal the archive's, diff showing how
// it differs (golden.LineDiff).
func RunScripts(t *testing.T, glob string, update bool, diff func(want, got []byte) string, run func(t *testing.T, a *Archive) []File) {
	paths, err := filepath.Glob(glob)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts (%v)", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := ParseArchive(data)
			got := run(t, a)
			if update {
				kept := a.Files[:0]
				for _, f := range a.Files {
					if !strings.HasPrefix(f.Name, ScriptWant) {
						kept = append(kept, f)
					}
				}
				a.Files = append(kept, got...)
				if err := os.WriteFile(path, a.Format(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, g := range got {
				want, ok := a.File(g.Name)
				if !ok {
					t.Errorf("%s has no %s member (run go test -update to add it)", path, g.Name)
					continue
				}
				if !bytes.Equal(want, g.Data) {
					t.Errorf("%s: %s differs (run go test -update to accept):\n%s", path, g.Name, diff(want, g.Data))
				}
			}
		})
	}
}

// ScriptWorkspace writes the script's workspace files into ws.
func ScriptWorkspace(t testing.TB, a *Archive, ws string) {
	t.Helper()
	files := map[string]string{}
	for _, f := range a.Files {
		switch {
		case f.Name == ScriptArgs, f.Name == ScriptEnv, f.Name == ScriptEvent, f.Name == ScriptFiles, f.Name == ScriptFaults, f.Name == ScriptToolVersion, strings.HasPrefix(f.Name, ScriptWant):
		default:
			files[f.Name] = string(f.Data)
		}
	}
	WriteFiles(t, ws, files)
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
}

// ScriptCommand is the script's command line, one argument a line.
func ScriptCommand(a *Archive) []string {
	data, _ := a.File(ScriptArgs)
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

// SetScriptEnv sets the script's env member over env.
func SetScriptEnv(a *Archive, env map[string]string) {
	data, _ := a.File(ScriptEnv)
	for _, line := range strings.Split(string(data), "\n") {
		// A value's \n is a new line: list inputs take one item a line.
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = strings.ReplaceAll(v, `\n`, "\n")
		}
	}
}

// Fault is a refusal the fake GitHub answers a request with.
type Fault struct {
	Method, Path string
	Status       int
	Body         string
}

// ScriptFaultList is the script's faults member.
func ScriptFaultList(t testing.TB, a *Archive) []Fault {
	t.Helper()
	data, _ := a.File(ScriptFaults)
	var out []Fault
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		f := strings.SplitN(line, " ", 4)
		status, err := strconv.Atoi(f[2])
		if len(f) != 4 || err != nil {
			t.Fatalf("faults: %q is not METHOD PATH STATUS BODY", line)
		}
		out = append(out, Fault{Method: f[0], Path: f[1], Status: status, Body: f[3]})
	}
	return out
}

// junitTime is a JUnit time attribute: how long the machine took, the one
// part of a report that changes from run to run.
var junitTime = regexp.MustCompile(` time="[0-9.]+"`)

// ScriptReportFiles are the want/file/ members: the report files the
// script's files member names, as the run wrote them ("(none)" for a file
// it did not write).
func ScriptReportFiles(t testing.TB, a *Archive, ws string, clean func(string) []byte) []File {
	t.Helper()
	list, _ := a.File(ScriptFiles)
	var out []File
	for _, name := range strings.Fields(string(list)) {
		data, err := os.ReadFile(filepath.Join(ws, name))
		text := "(none)\n"
		if err == nil {
			text = junitTime.ReplaceAllString(string(data), ` time="T"`)
		}
		out = append(out, File{Name: ScriptWant + "file/" + name, Data: clean(text)})
	}
	return out
}

// Scrubber replaces what changes from one run to the next (the old/new
// pairs: folders, the fake's address; and stop-commands tokens) with fixed
// words; an empty text becomes "(none)".
func Scrubber(oldnew ...string) func(string) []byte {
	stop := regexp.MustCompile(`::stop-commands::[0-9a-f]{32}|::[0-9a-f]{32}::`)
	r := strings.NewReplacer(oldnew...)
	return func(s string) []byte {
		s = r.Replace(s)
		s = stop.ReplaceAllStringFunc(s, func(m string) string {
			if strings.HasPrefix(m, "::stop-commands::") {
				return "::stop-commands::TOKEN"
			}
			return "::TOKEN::"
		})
		if s == "" {
			s = "(none)\n"
		}
		return []byte(s)
	}
}

// FormatOutputs lists step outputs as name=value lines, by name.
func FormatOutputs(outs map[string]string) string {
	names := make([]string, 0, len(outs))
	for k := range outs {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "%s=%s\n", k, outs[k])
	}
	return b.String()
}

// Request is one request the fake GitHub recorded.
type Request struct {
	Method, Path, RawQuery string
	Body                   []byte
}

// FormatRequests lists the requests; a JSON body is shown one member a
// line (key paths sorted), a text of several lines as its lines, so that a
// changed summary or comment reads as a diff of its own lines.
func FormatRequests(reqs []Request) string {
	var b strings.Builder
	for _, r := range reqs {
		fmt.Fprintf(&b, "%s %s", r.Method, r.Path)
		if r.RawQuery != "" {
			b.WriteString("?" + r.RawQuery)
		}
		b.WriteString("\n")
		if len(r.Body) == 0 {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(r.Body))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			b.Write(r.Body)
			b.WriteString("\n")
			continue
		}
		flatten(&b, "", v)
	}
	if b.Len() == 0 {
		return "(none)\n"
	}
	return b.String()
}

func flatten(b *strings.Builder, path string, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flatten(b, path+"."+k, v[k])
		}
	case []any:
		for i, e := range v {
			flatten(b, fmt.Sprintf("%s[%d]", path, i), e)
		}
	case string:
		if !strings.Contains(v, "\n") {
			fmt.Fprintf(b, "  %s = %q\n", strings.TrimPrefix(path, "."), v)
			return
		}
		fmt.Fprintf(b, "  %s =\n", strings.TrimPrefix(path, "."))
		for _, line := range strings.Split(v, "\n") {
			fmt.Fprintf(b, "    | %s\n", line)
		}
	default:
		fmt.Fprintf(b, "  %s = %v\n", strings.TrimPrefix(path, "."), v)
	}
}

// ActionDefaults reads the default of every input in the action.yml at
// path.
func ActionDefaults(t testing.TB, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`^  ([a-z][a-z-]*):`)
	def := regexp.MustCompile(`^    default: (.*)$`)
	out := map[string]string{}
	in, name := false, ""
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && line[0] != ' ' && line[0] != '#' {
			in = line == "inputs:"
			continue
		}
		if !in {
			continue
		}
		if m := key.FindStringSubmatch(line); m != nil {
			name = m[1]
			out[name] = ""
		} else if m := def.FindStringSubmatch(line); m != nil && name != "" {
			out[name] = strings.Trim(m[1], `'"`)
		}
	}
	return out
}

// ScriptPlaceholders fills $PYTHON_EXAMPLE and $ADAPTER (the given
// command line of the project's adapter) into the command line and the
// environment, and returns the Python example's command line. The Python
// example is looked up only where a script uses it: it skips (or, in CI,
// fails) where python3 is missing. It runs through a small script in the
// working directory wd, ./.python-example, so that the command line the
// reports quote (a reproduce line, shell-quoted and broken for the
// column) is the same on every machine.
func ScriptPlaceholders(t testing.TB, a *Archive, wd string, args []string, env map[string]string, adapter string) (py string) {
	t.Helper()
	py = "$PYTHON_EXAMPLE"
	if bytes.Contains(a.Format(), []byte(py)) {
		py = "./.python-example"
		WriteFiles(t, wd, map[string]string{".python-example": "#!/bin/sh\nexec " + PythonExample(t) + "\n"})
		if err := os.Chmod(filepath.Join(wd, ".python-example"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := strings.NewReplacer("$PYTHON_EXAMPLE", py, "$ADAPTER", adapter)
	for i := range args {
		args[i] = r.Replace(args[i])
	}
	for k, v := range env {
		env[k] = r.Replace(v)
	}
	return py
}

// ScriptSinks is what a script's run showed: its exit code, standard
// output and error, the files of the step outputs and the job summary
// (either may be missing), and the requests the fake GitHub recorded.
type ScriptSinks struct {
	Code                    int
	Stdout, Stderr          string
	OutputFile, SummaryFile string
	Requests                []Request
}

// ScriptGot is the want/ members of a run, scrubbed by clean, the report
// files the script names included.
func ScriptGot(t testing.TB, a *Archive, ws string, s ScriptSinks, clean func(string) []byte) []File {
	t.Helper()
	outputs := "(none)\n"
	if _, err := os.Stat(s.OutputFile); err == nil {
		outputs = FormatOutputs(ReadOutputs(t, s.OutputFile))
	}
	sum := "(none)\n"
	if b, err := os.ReadFile(s.SummaryFile); err == nil {
		sum = string(b)
	}
	got := []File{
		{Name: "want/exit", Data: []byte(fmt.Sprintf("%d\n", s.Code))},
		{Name: "want/stdout", Data: clean(s.Stdout)},
		{Name: "want/stderr", Data: clean(s.Stderr)},
		{Name: "want/outputs", Data: clean(outputs)},
		{Name: "want/summary", Data: clean(sum)},
		{Name: "want/requests", Data: clean(FormatRequests(s.Requests))},
	}
	return append(got, ScriptReportFiles(t, a, ws, clean)...)
}
