package harness

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/internal/testkit"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// The test binary doubles as the implementations under test: with
// HARNESS_TEST_ADAPTER set it serves the protocol with the project's
// validator, misbehaving on purpose on the fixtures the variable names.
// Faults are "kind:fixture-name" pairs separated by commas.
const adapterEnv = "HARNESS_TEST_ADAPTER"

func TestMain(m *testing.M) {
	if spec, ok := os.LookupEnv(adapterEnv); ok {
		os.Exit(fakeAdapter(spec))
	}
	os.Exit(m.Run())
}

func fakeAdapter(spec string) int {
	faults := map[string]string{} // fixture name -> kind
	executes, myName, noPhase, hangAll := false, "fake", false, false
	var phases []string
	refusal, sentLog := "", ""
	var caps json.RawMessage
	var adapter *protocol.Adapter
	var memoryLimit int64
	for _, f := range strings.Split(spec, ",") {
		kind, name, _ := strings.Cut(f, ":")
		switch kind {
		case "":
		case "nohello":
			fmt.Fprintln(os.Stderr, "refusing to start")
			return 4
		case "nomodule":
			// What node prints when the script or a module it imports
			// is not where it looks, after earlier noise.
			for i := 1; i <= 30; i++ {
				fmt.Fprintf(os.Stderr, "noise line %d\n", i)
			}
			fmt.Fprintln(os.Stderr, "::error::not a command")
			fmt.Fprintln(os.Stderr, "Error: Cannot find module '/work/adapters/webgpu/host.js'")
			return 1
		case "executes":
			executes = true
		case "hangall":
			hangAll = true
		case "name":
			myName = name
		case "phases":
			phases = strings.Split(name, "+")
		case "nophase":
			noPhase = true
		case "refuse":
			refusal = name
		case "caps":
			caps = json.RawMessage(`{"max_bind_groups":4}`)
		case "adapter":
			// "adapter:VENDOR/DEVICE", the device its hello names.
			vendor, device, _ := strings.Cut(name, "/")
			adapter = &protocol.Adapter{Vendor: vendor, Device: device}
		case "memlimit":
			// "memlimit:MiB", the memory_limit its hello sets.
			n, _ := strconv.Atoi(name)
			memoryLimit = int64(n) << 20
		case "growonly":
			// A process that holds ever more memory and does nothing
			// else: the child of the fault growchild.
			grow()
		case "sentlog":
			// Each fixture's name is appended to the file as it arrives.
			sentLog = name
		case "spawn", "setsid":
			// A child in the adapter's process group that outlives it
			// unless the harness ends the group, or (setsid) one in a
			// session of its own that outlives the group; its pid goes to
			// the file.
			child := exec.Command("sleep", "60")
			if kind == "setsid" {
				child = exec.Command("setsid", "sleep", "60")
			}
			if err := child.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if err := os.WriteFile(name, []byte(strconv.Itoa(child.Process.Pid)), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		default:
			faults[name] = kind
		}
	}
	v, err := runner.NewValidator(runner.Config{Checker: drp2.New()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	valid := ValidatorJudge(v)
	flickers := 0
	judge := func(f *Fixture) Verdict {
		if sentLog != "" {
			if err := appendLine(sentLog, f.Name); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if hangAll {
			time.Sleep(time.Hour)
		}
		verdict := valid(f)
		if executes {
			verdict.Replies = mirror(f.Commands)
		}
		switch faults[f.Name] {
		case "crash":
			fmt.Fprintln(os.Stderr, "panic: the adapter fell over on", f.Name)
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		case "grow":
			grow()
		case "growchild":
			// A child in a session of its own, as a browser's GPU process
			// is, holds the memory: the implementation's group is not
			// all of its tree.
			child := exec.Command("setsid", os.Args[0])
			child.Env = append(os.Environ(), adapterEnv+"=growonly")
			if err := child.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Fprintf(os.Stderr, "grower %d\n", child.Process.Pid)
			time.Sleep(time.Hour)
		case "garbage":
			fmt.Println("this is not JSON")
		case "outofturn":
			fmt.Printf("{\"type\":\"verdict\",\"seq\":%d,\"outcome\":\"success\"}\n", f.Seq+7)
		case "wrong":
			return Verdict{Outcome: "success"}
		case "shortdata":
			verdict.Replies = shortData(verdict.Replies)
		case "bump":
			verdict.Replies = firstByte(verdict.Replies, 1)
		case "flicker":
			// Every other answer in one process differs.
			flickers++
			verdict.Replies = firstByte(verdict.Replies, byte(flickers%2))
		case "noreply":
			verdict.Replies = nil
		case "wrongcode":
			verdict.Code = "DRP2_ERR_NOT_THIS_ONE"
		case "twice":
			// The verdict goes out here and again when Serve sends it.
			extra := verdict
			extra.Type, extra.Seq = TypeVerdict, f.Seq
			b, _ := encode(extra)
			os.Stdout.Write(b)
		}
		if noPhase {
			verdict.Phase = ""
		}
		return verdict
	}
	me := Hello{Name: myName, Version: "1.0", DRP2Versions: []string{"2.0"}, Executes: executes, Phases: phases, Error: refusal, Capabilities: caps, Adapter: adapter, MemoryLimit: memoryLimit}
	if err := Serve(os.Stdin, os.Stdout, me, judge, DefaultMaxLine); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// grown is what grow holds.
var grown [][]byte

// grow holds 8 MiB more memory every 20 ms, written so that it is
// resident, until the process is killed.
func grow() {
	for {
		b := make([]byte, 8<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		grown = append(grown, b)
		time.Sleep(20 * time.Millisecond)
	}
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	return errors.Join(err, f.Close())
}

// mirror is what a correct executing implementation replies: one
// QueueSubmitReply per QueueSubmit with readbacks, mirroring the request,
// with zero bytes of the requested size.
func mirror(commands json.RawMessage) []json.RawMessage {
	var list []json.RawMessage
	_ = json.Unmarshal(commands, &list)
	var out []json.RawMessage
	for _, req := range Requests(list) {
		type entry struct {
			Readback
			Data string `json:"data"`
		}
		reply := struct {
			Cmd          string      `json:"cmd"`
			SubmissionID json.Number `json:"submission_id"`
			Readbacks    []entry     `json:"readbacks"`
		}{Cmd: "QueueSubmitReply", SubmissionID: req.SubmissionID}
		for _, rb := range req.Readbacks {
			n, _ := rb.Size.Int64()
			reply.Readbacks = append(reply.Readbacks, entry{rb, strings.Repeat("A", int(n/3*4)) + pad(n)})
		}
		b, _ := json.Marshal(reply)
		out = append(out, b)
	}
	return out
}

// pad finishes the base64 of n zero bytes.
func pad(n int64) string {
	switch n % 3 {
	case 1:
		return "AA=="
	case 2:
		return "AAA="
	}
	return ""
}

// shortData drops one byte from the first readback of the first reply.
func shortData(replies []json.RawMessage) []json.RawMessage {
	if len(replies) == 0 {
		return replies
	}
	var r map[string]any
	_ = json.Unmarshal(replies[0], &r)
	rb := r["readbacks"].([]any)[0].(map[string]any)
	rb["data"] = "AAAA" // three bytes, whatever the size
	b, _ := json.Marshal(r)
	return append([]json.RawMessage{b}, replies[1:]...)
}

// firstByte sets the first byte of the first readback of the first reply.
func firstByte(replies []json.RawMessage, b byte) []json.RawMessage {
	if len(replies) == 0 {
		return replies
	}
	var r map[string]any
	_ = json.Unmarshal(replies[0], &r)
	rb := r["readbacks"].([]any)[0].(map[string]any)
	data, _ := base64.StdEncoding.DecodeString(rb["data"].(string))
	data[0] = b
	rb["data"] = base64.StdEncoding.EncodeToString(data)
	out, _ := json.Marshal(r)
	return append([]json.RawMessage{out}, replies[1:]...)
}

// self is the command line that runs this test binary as an adapter.
func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "'" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
}

// embeddedRun runs the runner over the project's embedded corpus.
func embeddedRun(t *testing.T, names ...string) (*model.Run, ReadFunc) {
	t.Helper()
	run, err := runner.Run(context.Background(), runner.Config{EmbeddedFS: fixtures.FS, Checker: drp2.New(), WorkDir: "/"})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) > 0 {
		keep := map[string]bool{}
		for _, n := range names {
			keep[n] = true
		}
		var rs []model.Result
		for _, r := range run.Results {
			if keep[r.Name] {
				rs = append(rs, r)
			}
		}
		if len(rs) != len(names) {
			t.Fatalf("found %d of the fixtures %v", len(rs), names)
		}
		run.Results = rs
		run.Summary = model.Summarize(len(rs), rs, nil)
	}
	return run, func(rel string) ([]byte, error) { return fs.ReadFile(fixtures.FS, rel) }
}

func runHarness(t *testing.T, cfg Config, base *model.Run, read ReadFunc) []model.Implementation {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 2 * time.Second
	}
	impls, err := Run(context.Background(), cfg, base, read)
	if err != nil {
		t.Fatal(err)
	}
	return impls
}

func env(spec string) []string { return append(os.Environ(), adapterEnv+"="+spec) }

// TestValidatorAdapterAgreesWithRunner: the project's own validator behind
// the protocol must classify the whole embedded corpus exactly as the
// runner does, which proves the round trip of every message.
func TestValidatorAdapterAgreesWithRunner(t *testing.T) {
	base, read := embeddedRun(t)
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("")}, base, read)
	im := impls[0]
	if im.Error != "" || im.Name != "fake" || im.Version != "1.0" || len(im.DRP2Versions) != 1 || im.Executes {
		t.Fatalf("handshake: %+v", im)
	}
	if len(im.Results) != len(base.Results) || len(im.Results) < 50 {
		t.Fatalf("%d results for %d fixtures", len(im.Results), len(base.Results))
	}
	for i, r := range im.Results {
		b := base.Results[i]
		if r.Path != b.Path || r.Passed != b.Passed || r.Actual.Outcome != b.Actual.Outcome ||
			r.Actual.Phase != b.Actual.Phase || r.Actual.Code != b.Actual.Code || !sameIndex(r.Actual.CommandIndex, b.Actual.CommandIndex) {
			t.Errorf("%s: adapter %+v, runner %+v", r.Path, r.Actual, b.Actual)
		}
	}
	if im.Summary.Run != base.Summary.Run || im.Summary.Passed != base.Summary.Passed || im.Restarts != 0 {
		t.Errorf("summary %+v vs %+v, %d restarts", im.Summary, base.Summary, im.Restarts)
	}
}

// TestFaults: every kind of misbehaviour costs exactly its fixture, the
// implementation is restarted, and the fixtures after it are judged.
func TestFaults(t *testing.T) {
	names := []string{"session_handshake_ok", "upload_buffer_write", "render_triangle_draw", "texture_view_lifecycle", "upload_texture_write", "submit_two_command_buffers"}
	base, read := embeddedRun(t, names...)
	byName := map[string]int{}
	for i, r := range base.Results {
		byName[r.Name] = i
	}
	spec := "crash:upload_buffer_write,hang:render_triangle_draw,garbage:texture_view_lifecycle,outofturn:upload_texture_write,wrong:session_handshake_ok"
	start := time.Now()
	progress := &runner.Progress{}
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env(spec), Timeout: 500 * time.Millisecond, Progress: progress}, base, read)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the run took %v", d)
	}
	im := impls[0]
	want := map[string]string{
		"upload_buffer_write":    "it exited (status 3)",
		"render_triangle_draw":   "no answer within the timeout",
		"texture_view_lifecycle": `not a protocol message`,
		"upload_texture_write":   "out of turn",
	}
	for name, msg := range want {
		r := im.Results[byName[name]]
		if r.Passed || r.Actual.Outcome != model.HarnessError || !strings.Contains(r.Actual.Message, msg) {
			t.Errorf("%s: %+v, want a harness error saying %q", name, r.Actual, msg)
		}
		if r.Span == nil {
			t.Errorf("%s: no location", name)
		}
	}
	crash := im.Results[byName["upload_buffer_write"]]
	if len(crash.Diagnostics) != 1 || !strings.Contains(crash.Diagnostics[0].Message, "fell over on upload_buffer_write") {
		t.Errorf("the crash's stderr is not on its result: %+v", crash.Diagnostics)
	}
	// session_handshake_ok is positive: a wrong "success" still passes.
	if r := im.Results[byName["session_handshake_ok"]]; !r.Passed {
		t.Errorf("session_handshake_ok: %+v", r.Actual)
	}
	if r := im.Results[byName["submit_two_command_buffers"]]; !r.Passed {
		t.Errorf("the fixture after the faults was not judged: %+v", r.Actual)
	}
	// Four faults, the last one on the last fixture: three restarts.
	if im.Restarts != 3 {
		t.Errorf("%d restarts, want 3", im.Restarts)
	}
	if !strings.Contains(im.Stderr, "fell over") {
		t.Errorf("stderr not kept: %q", im.Stderr)
	}
	// Each fixture counted once it was answered, the four faults failed.
	if done, total, failed := progress.Counts(); done != len(names) || total != len(names) || failed != 4 {
		t.Errorf("progress %d/%d, %d failed; want %d/%d, 4 failed", done, total, failed, len(names), len(names))
	}
}

// TestCircuitBreaker: an implementation that leaves three fixtures in a
// row without an answer is sent no more; the rest are reported as not
// run, with the reason, instead of costing a timeout and a restart each.
// Fewer timeouts in a row, between answers, stop nothing.
func TestCircuitBreaker(t *testing.T) {
	base, read := embeddedRun(t)
	base.Results = base.Results[:20]
	start := time.Now()
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("hangall"), Timeout: 300 * time.Millisecond}, base, read)
	elapsed := time.Since(start)
	im := impls[0]
	if len(im.Results) != 20 {
		t.Fatalf("%d results", len(im.Results))
	}
	for i, r := range im.Results {
		want := "no answer within the timeout"
		if i >= maxTimeoutsInARow {
			want = "not run: stopped after 3 fixtures in a row without an answer within the timeout (300ms)"
		}
		if r.Passed || r.Actual.Outcome != model.HarnessError || !strings.Contains(r.Actual.Message, want) {
			t.Errorf("%d %s: %q, want %q", i, r.Name, r.Actual.Message, want)
		}
	}
	if im.Restarts != maxTimeoutsInARow-1 {
		t.Errorf("%d restarts", im.Restarts)
	}
	// Three timeouts and two restarts, not twenty and nineteen.
	if elapsed > 6*time.Second {
		t.Errorf("the run took %v", elapsed)
	}

	names := []string{"session_handshake_ok", "upload_buffer_write", "render_triangle_draw", "texture_view_lifecycle", "upload_texture_write"}
	base, read = embeddedRun(t, names...)
	spec := "hang:" + base.Results[0].Name + ",hang:" + base.Results[1].Name + ",hang:" + base.Results[3].Name + ",hang:" + base.Results[4].Name
	im = runHarness(t, Config{Commands: []string{self(t)}, Env: env(spec), Timeout: 300 * time.Millisecond}, base, read)[0]
	for i, r := range im.Results {
		if strings.Contains(r.Actual.Message, "not run") || (i == 2) != r.Passed {
			t.Errorf("%d %s: %+v", i, r.Name, r.Actual)
		}
	}
}

// TestWrongVerdict: a negative fixture answered with success fails, through
// the runner's matching, and is located at its expected block.
func TestWrongVerdict(t *testing.T) {
	base, read := embeddedRun(t)
	var neg *model.Result
	for i := range base.Results {
		if base.Results[i].Class == model.ClassNegative {
			neg = &base.Results[i]
			break
		}
	}
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("wrong:" + neg.Name)}, base, read)
	for _, r := range impls[0].Results {
		if r.Name != neg.Name {
			continue
		}
		if r.Passed || r.Actual.Outcome != model.Success || r.Span == nil || r.Reason == "" {
			t.Fatalf("%+v", r)
		}
		return
	}
	t.Fatal("fixture not run")
}

// TestUnusableImplementations: a command that does not exist and one that
// exits before the handshake give harness errors for every fixture and an
// error on the implementation, while a good one beside them is unharmed.
func TestUnusableImplementations(t *testing.T) {
	base, read := embeddedRun(t, "session_handshake_ok", "upload_buffer_write")
	cfg := Config{Commands: []string{"/nonexistent/adapter --flag", self(t), self(t)}, Env: env("nohello")}
	// Every process gets the same environment: the last command is told
	// apart by having no fault, through a wrapper that clears it.
	cfg.Commands[2] = "env " + adapterEnv + "= " + self(t)
	impls := runHarness(t, cfg, base, read)
	for _, im := range impls[:2] {
		if im.Error == "" || im.Summary.Passed != 0 || im.HarnessErrors() != 2 {
			t.Errorf("%s: error %q, %+v", im.Command, im.Error, im.Summary)
		}
	}
	if !strings.Contains(impls[1].Stderr, "refusing to start") || !strings.Contains(impls[1].Error, "exited (status 4)") {
		t.Errorf("nohello: %q / %q", impls[1].Error, impls[1].Stderr)
	}
	if im := impls[2]; im.Error != "" || im.Summary.Passed != 2 {
		t.Errorf("good implementation: %q %+v", im.Error, im.Summary)
	}
}

// TestHandshakeErrorShowsStderr: an implementation that exits before the
// handshake is explained by its own last words (node's "Cannot find
// module"), kept short and unable to act as a workflow command in a log.
func TestHandshakeErrorShowsStderr(t *testing.T) {
	base, read := embeddedRun(t, "session_handshake_ok")
	impls := runHarness(t, Config{Commands: []string{self(t)}, Env: env("nomodule")}, base, read)
	msg := impls[0].Error
	for _, want := range []string{"handshake: it exited (status 1)", "Error: Cannot find module '/work/adapters/webgpu/host.js'", "noise line 30"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "noise line 11\n") || strings.Count(msg, "\n") > maxHandshakeStderrLines+1 || len(msg) > 300+maxHandshakeStderrBytes {
		t.Errorf("the stderr in the error is not bounded to its last %d lines:\n%s", maxHandshakeStderrLines, msg)
	}
	for _, line := range strings.Split(msg, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("a line of the error can act as a workflow command: %q", line)
		}
	}
}

// TestDeterministic: two runs of the same implementations give the same
// results, whatever the scheduling of parallel implementations.
func TestDeterministic(t *testing.T) {
	base, read := embeddedRun(t)
	cfg := Config{Commands: []string{self(t), self(t)}, Env: env("wrong:upload_buffer_write")}
	a := runHarness(t, cfg, base, read)
	b := runHarness(t, cfg, base, read)
	for i := range a {
		for j := range a[i].Results {
			x, y := a[i].Results[j], b[i].Results[j]
			x.Duration, y.Duration = 0, 0
			if !reflect.DeepEqual(x, y) {
				t.Fatalf("run differs at %s", x.Path)
			}
		}
	}
}

// TestSecretsStayOut: an implementation gets neither the secrets nor the
// runner's file commands (with GITHUB_ENV it could set BASH_ENV or
// NODE_OPTIONS for every later step, with GITHUB_STEP_SUMMARY write the
// summary unescaped) nor the runner's service endpoints.
func TestSecretsStayOut(t *testing.T) {
	got := childEnv([]string{"PATH=/bin", "INPUT_TOKEN=x", "GITHUB_TOKEN=y", "MY_SECRET=z", "HOME=/h",
		"GITHUB_ENV=/f/env", "GITHUB_PATH=/f/path", "GITHUB_OUTPUT=/f/out", "GITHUB_STEP_SUMMARY=/f/sum", "GITHUB_STATE=/f/state",
		"ACTIONS_RUNTIME_URL=https://r", "ACTIONS_CACHE_URL=https://c", "ACTIONS_RESULTS_URL=https://res", "ACTIONS_ID_TOKEN_REQUEST_URL=https://o",
		"GITHUB_WORKSPACE=/w", "GITHUB_SHA=abc"})
	if strings.Join(got, " ") != "PATH=/bin HOME=/h GITHUB_WORKSPACE=/w GITHUB_SHA=abc" {
		t.Errorf("%v", got)
	}
}

// TestInterrupted: a cancelled run does not wait out a hanging
// implementation's timeout.
func TestInterrupted(t *testing.T) {
	base, read := embeddedRun(t, "session_handshake_ok", "upload_buffer_write")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := Run(ctx, Config{Commands: []string{self(t)}, Env: env("hang:session_handshake_ok"), Timeout: time.Minute}, base, read)
	if err == nil || time.Since(start) > 10*time.Second {
		t.Errorf("err %v after %v", err, time.Since(start))
	}
}

// TestPhasesNotClaimed: an implementation that performs no schema
// validation and reports no phase is judged on code and command index;
// the schema negatives are not sent, neither pass nor fail, and keep it
// from Level 1.
func TestPhasesNotClaimed(t *testing.T) {
	base, read := embeddedRun(t)
	var semantic string
	for _, r := range base.Results {
		if r.Class == model.ClassNegative && r.Expected.Phase == "semantic_validation" {
			semantic = r.Name
			break
		}
	}
	spec := "phases:semantic_validation+capability_validation,nophase,caps,wrongcode:" + semantic
	im := runHarness(t, Config{Commands: []string{self(t)}, Env: env(spec)}, base, read)[0]
	if im.Error != "" || im.Protocol != 2 || strings.Join(im.Phases, " ") != "semantic_validation capability_validation" {
		t.Fatalf("handshake: %q, protocol %d, phases %v", im.Error, im.Protocol, im.Phases)
	}
	if string(im.Capabilities) != `{"max_bind_groups":4}` {
		t.Errorf("the hello's capabilities were not kept: %q", im.Capabilities)
	}
	schema := 0
	for _, r := range im.Results {
		switch {
		case r.Class == model.ClassSchemaNegative:
			schema++
			if r.Passed || r.Actual.Outcome != model.NotClaimed || !strings.Contains(r.Actual.Message, "does not perform schema_validation") {
				t.Errorf("%s: %+v, want not claimed", r.Name, r.Actual)
			}
		case r.Name == semantic:
			if r.Passed || r.Actual.Code != "DRP2_ERR_NOT_THIS_ONE" {
				t.Errorf("%s: a wrong code passed: %+v", r.Name, r.Actual)
			}
		case r.Class == model.ClassNegative:
			if !r.Passed || r.Actual.Phase != "" || !strings.HasPrefix(r.Actual.Message, "phase not reported") {
				t.Errorf("%s: %+v, passed %v; want a pass on code and index, phase not reported", r.Name, r.Actual, r.Passed)
			}
		}
	}
	if schema == 0 || im.Summary.NotClaimed != schema || im.NotClaimedCount() != schema {
		t.Errorf("%d schema negatives, summary %+v", schema, im.Summary)
	}
	// Only the wrong code failed: the unclaimed ones are not failures.
	if im.Summary.Failed != 1 || im.Summary.Passed+im.Summary.Failed+im.Summary.NotClaimed != im.Summary.Run {
		t.Errorf("summary %+v", im.Summary)
	}
	if im.Level1() {
		t.Error("Level 1 met with fixtures not claimed")
	}
}

// TestRefusal: an implementation that says it cannot run here (no GPU
// adapter) is one clear error, not a failure per fixture, and is not
// restarted for each of them.
func TestRefusal(t *testing.T) {
	base, read := embeddedRun(t, "session_handshake_ok", "upload_buffer_write")
	im := runHarness(t, Config{Commands: []string{self(t)}, Env: env("refuse:no WebGPU adapter; tried vulkan")}, base, read)[0]
	if !strings.Contains(im.Error, "it cannot run here: no WebGPU adapter; tried vulkan") || im.Restarts != 0 || im.Name != "fake" {
		t.Fatalf("error %q, %d restarts, name %q", im.Error, im.Restarts, im.Name)
	}
	for _, r := range im.Results {
		if r.Actual.Outcome != model.HarnessError || !strings.HasPrefix(r.Actual.Message, "not run: ") {
			t.Errorf("%s: %+v", r.Name, r.Actual)
		}
	}
}

// TestExpectAdapter: an implementation whose hello names another device
// than the run expects (a GPU job fallen back to SwiftShader) is sent no
// fixture, at once, and its error says what it runs on; one on the device
// expected runs as before. The fake on the wrong device hangs on any
// fixture it is sent, so that one sent would show as a timeout too.
func TestExpectAdapter(t *testing.T) {
	base, read := embeddedRun(t)
	sent := filepath.Join(t.TempDir(), "sent")
	cfg := Config{Commands: []string{self(t)}, Env: env("name:rt,adapter:Google/SwiftShader Device (Subzero),hangall,sentlog:" + sent),
		ExpectAdapter: "*NVIDIA*", Timeout: 5 * time.Second}
	var im model.Implementation
	wall := time.Now()
	cpu := testkit.CPUTime(func() { im = runHarness(t, cfg, base, read)[0] })
	elapsed := time.Since(wall)
	want := "implementation rt 1.0 runs on Google SwiftShader Device (Subzero), not *NVIDIA* (the adapter the run expects): no fixture was sent to it"
	if im.Error != want || im.Restarts != 0 {
		t.Fatalf("error %q, %d restarts; want %q", im.Error, im.Restarts, want)
	}
	if b, err := os.ReadFile(sent); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("fixtures sent: %q (%v)", b, err)
	}
	if len(im.Results) != len(base.Results) || im.HarnessErrors() != len(base.Results) {
		t.Errorf("%d results, %d harness errors, want %d of each", len(im.Results), im.HarnessErrors(), len(base.Results))
	}
	for _, r := range im.Results {
		if !strings.HasPrefix(r.Actual.Message, "not run: "+want) {
			t.Fatalf("%s: %+v", r.Name, r.Actual)
		}
	}
	if cpu > 2*time.Second {
		t.Errorf("refusing the device took %v of CPU, want under 2s", cpu)
	}
	t.Logf("refused in %v of CPU (%v on the clock), no fixture of %d sent", cpu, elapsed, len(base.Results))

	cfg.Env = env("name:rt,adapter:NVIDIA/GeForce RTX 4090,sentlog:" + sent)
	im = runHarness(t, cfg, base, read)[0]
	b, _ := os.ReadFile(sent)
	if im.Error != "" || im.Summary.Passed == 0 || strings.Count(string(b), "\n") != len(base.Results) {
		t.Errorf("on the device expected: error %q, %d passed, %d of %d fixtures sent", im.Error, im.Summary.Passed, strings.Count(string(b), "\n"), len(base.Results))
	}
}

// TestLevel3Bytes: the bytes of replies that pass Level 2 are kept for the
// parity table, and the fixtures' own reply data is its reference.
func TestLevel3Bytes(t *testing.T) {
	base, read := embeddedRun(t)
	im := runHarness(t, Config{Commands: []string{self(t)}, Env: env("executes")}, base, read)[0]
	if len(im.Readbacks) == 0 {
		t.Fatal("no readback bytes kept")
	}
	for p, data := range im.Readbacks {
		if !im.Level2[p] || len(data) == 0 {
			t.Errorf("%s: %d readbacks kept, Level 2 %v", p, len(data), im.Level2[p])
		}
		for _, b := range data {
			for _, x := range b {
				if x != 0 {
					t.Fatalf("%s: the fake answers zeros, kept %x", p, b)
				}
			}
		}
	}
	base.Implementations = []model.Implementation{im}
	rows := model.Parity(base)
	if len(rows) == 0 || len(base.FixtureReadbacks) == 0 {
		t.Fatalf("%d parity rows, %d fixtures with reply data", len(rows), len(base.FixtureReadbacks))
	}
	for _, r := range rows {
		if r.Groups[0].Sources[0] != model.FixtureSource {
			t.Errorf("%s: a row without the fixture's data: %+v", r.Path, r)
		}
	}
}
