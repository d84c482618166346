package harness

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/internal/secret"
)

// process is one running implementation with its two pipes. The harness
// owns both ends it holds: stdin to write requests, stdout to read answers
// one line at a time, each bounded by a deadline so that a hung
// implementation costs one timeout, never the run.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	reader *bufio.Reader
	max    int
	exited chan struct{}
	err    error // from Wait, set before exited is closed
}

// waitDelay bounds how long Wait waits for the stderr copy after the
// process ended, when a child of the implementation keeps the pipe open.
const waitDelay = 2 * time.Second

// startProcess starts argv in dir with env, its stderr going to stderr.
// maxLine bounds one answer line.
func startProcess(argv []string, dir string, env []string, stderr *tail, maxLine int) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	cmd.WaitDelay = waitDelay
	ownGroup(cmd)
	err = startTracked(cmd)
	// The child holds its own copies of these ends now (or never will).
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, startError(argv[0], err)
	}
	p := &process{cmd: cmd, stdin: inW, stdout: outR, reader: bufio.NewReaderSize(outR, 64<<10),
		max: maxLine, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		untrack(cmd.Process.Pid)
		close(p.exited)
	}()
	return p, nil
}

// exchange writes one line and reads the answer line, both before
// deadline, as protocol.ReadAnswer reads it (blank lines are skipped).
func (p *process) exchange(line []byte, deadline time.Time) ([]byte, error) {
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		return nil, err
	}
	if _, err := p.stdin.Write(line); err != nil {
		return nil, p.ioError("writing to it", err)
	}
	return p.read(deadline)
}

// read reads the next answer line before deadline.
func (p *process) read(deadline time.Time) ([]byte, error) {
	if err := p.stdout.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	answer, err := protocol.ReadAnswer(p.reader, p.max)
	if err != nil {
		return nil, p.ioError("reading its answer", err)
	}
	return answer, nil
}

// ioError explains a failed exchange: a timeout, an answer too long, or
// the end of the process with its exit status.
func (p *process) ioError(doing string, err error) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &timeoutError{doing: doing}
	case errors.As(err, new(*protocol.LineTooLongError)):
		return fmt.Errorf("its answer is longer than the %d-byte limit of one line", p.max)
	}
	// Broken pipe or end of output: the process is ending; wait briefly
	// for its status, which says more than the pipe does.
	select {
	case <-p.exited:
		return fmt.Errorf("it exited (%s) while the harness was %s", status(p.err), doing)
	case <-time.After(time.Second):
		return fmt.Errorf("it closed its output while the harness was %s (%v)", doing, err)
	}
}

// timeoutError is an exchange that got no answer in time.
type timeoutError struct{ doing string }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("no answer within the timeout (while %s)", e.doing)
}

// status describes how a process ended.
func status(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "status 0"
	case errors.As(err, &ee):
		return strings.TrimPrefix(ee.ProcessState.String(), "exit ")
	default:
		return err.Error()
	}
}

// stop asks the process to end with goodbye and kills it when it does not
// end within grace. Whatever it started in its process group is ended
// with it: a shell script's children do not outlive the run. It is safe to
// call more than once.
func (p *process) stop(goodbye []byte, grace time.Duration) {
	if goodbye != nil {
		_ = p.stdin.SetWriteDeadline(time.Now().Add(grace))
		_, _ = p.stdin.Write(goodbye)
	}
	p.stdin.Close()
	select {
	case <-p.exited:
		// The leader is gone, but the group lives on while any member
		// does, so its id still names it.
		killGroup(p.cmd)
	case <-time.After(grace):
		p.kill()
	}
	p.stdout.Close()
}

// kill ends the process and its whole process group at once and waits for
// it, so that no child of the implementation outlives the fixture.
func (p *process) kill() {
	killGroup(p.cmd)
	p.stdin.Close()
	p.stdout.Close()
	// A child that left the group may hold the stderr pipe, and Wait
	// then waits out waitDelay for it; once the implementation is gone,
	// that child is an orphan of this process's (endOrphans), ended here
	// so that a stopped run does not wait for it.
	for {
		select {
		case <-p.exited:
			return
		case <-time.After(orphanPoll):
			endOrphans()
		}
	}
}

// orphanPoll is how often kill looks for the orphans that keep an
// implementation's Wait from returning.
const orphanPoll = 50 * time.Millisecond

// tail keeps the last max bytes written to it: an implementation's stderr,
// kept bounded whatever it prints. Total counts every byte ever written, so
// that a caller can take what was written since a mark.
type tail struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int64
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	t.total += int64(n)
	if len(b) >= t.max {
		b = b[len(b)-t.max:]
		t.buf = t.buf[:0]
	}
	if over := len(t.buf) + len(b) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, b...)
	return n, nil
}

// mark is the position of the next byte written.
func (t *tail) mark() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// since returns what was written after mark and is still kept, and
// whether the start of it was already dropped.
func (t *tail) since(mark int64) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.total - mark
	if n <= 0 {
		return "", false
	}
	if n > int64(len(t.buf)) {
		return string(t.buf), true
	}
	return string(t.buf[int64(len(t.buf))-n:]), false
}

// String is everything kept, marked when older output was dropped.
func (t *tail) String() string {
	s, cut := t.since(0)
	return keepEnd(s, len(s), cut)
}

// childEnv is the environment of an implementation: the harness's own,
// without the secrets it holds (the GitHub token and any other variable
// named like one), which an implementation has no use for and could log;
// without the runner's file commands, through which it could set the
// environment, PATH, outputs, state or summary of the job's later steps;
// and without the runner's own service endpoints (ACTIONS_*: cache,
// artifacts, OIDC).
func childEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if secret.IsName(name) || fileCommands[upper] || strings.HasPrefix(upper, "ACTIONS_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// fileCommands are the variables naming the runner's file commands.
var fileCommands = map[string]bool{
	"GITHUB_ENV": true, "GITHUB_PATH": true, "GITHUB_OUTPUT": true, "GITHUB_STEP_SUMMARY": true, "GITHUB_STATE": true,
}

// startError explains a program that could not be started. One without
// the permission to execute it is the common case of a script just
// written or checked out without its mode: the fix is its mode or its
// interpreter, which the system's "permission denied" names neither.
func startError(program string, err error) error {
	if !errors.Is(err, fs.ErrPermission) {
		return err
	}
	hint := "chmod +x " + program + ", or start it with its interpreter"
	if interp := interpreters[strings.ToLower(filepath.Ext(program))]; interp != "" {
		hint += ": " + interp + " " + program
	}
	return fmt.Errorf("%s is not executable: %s (%v)", program, hint, err)
}

// interpreters are the programs that run a script by its extension: the
// WebGPU host's scripts, the Python example adapter, shell scripts.
var interpreters = map[string]string{".js": "node", ".mjs": "node", ".cjs": "node", ".py": "python3", ".sh": "sh"}
