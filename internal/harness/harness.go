package harness

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
	"github.com/drp2/drp2-fixtures/internal/protocol"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/runner"
)

// Defaults of Config.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultStartTimeout = 30 * time.Second
	DefaultMaxStderr    = 64 << 10
	DefaultMaxLine      = 64 << 20
	// maxCapabilities bounds the capabilities object of a hello kept for
	// the report; a larger one is left out.
	maxCapabilities = 64 << 10
	// maxFixtureStderr bounds the stderr kept on one fixture's result.
	maxFixtureStderr = 4 << 10
	// maxTimeoutsInARow is how many fixtures in a row an implementation may
	// leave without an answer before it is sent no more: a hung runtime
	// would otherwise cost a timeout and a restart per fixture.
	maxTimeoutsInARow = 3
	// level2Rule is the rule a reply-shape failure applies.
	level2Rule = "CONFORMANCE.md Level 2 rule 2"
)

// Config says which implementations to run and how.
type Config struct {
	// Commands are the implementations' command lines (SplitCommand).
	Commands []string
	// Dir is their working directory; empty means the harness's own.
	Dir string
	// Env is their environment before secrets are removed; nil means the
	// harness's own.
	Env []string
	// Timeout bounds the answer to one fixture; StartTimeout the
	// handshake. Zero means the defaults.
	Timeout      time.Duration
	StartTimeout time.Duration
	// MaxStderr bounds the stderr kept per implementation; MaxLine one
	// answer line. Zero means the defaults.
	MaxStderr int
	MaxLine   int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Progress, when set, counts each fixture sent to each implementation
	// as it is answered.
	Progress *runner.Progress
	// Announced is how many fixtures the caller has already added to
	// Progress for each implementation, so that its total is whole from
	// the start; the run adds only the difference (no corpus error is
	// sent).
	Announced int
	// Expect is what the expectations say of a fixture for the
	// implementation im, as its hello described it (name, version and
	// adapter); nil expects every fixture to pass. A skipped fixture is not
	// sent; only an unexpected failure is retried.
	Expect func(im *model.Implementation, r *model.Result) model.Expectation
	// Retries is how many more times a fixture that fails unexpectedly is
	// sent, each time to a fresh process; it stops at the first pass.
	Retries int
	// ExpectAdapter is a glob (model.Glob) its hello's adapter description
	// must match: an implementation on another device (a GPU job fallen
	// back to a software adapter) is sent no fixture, and its Error says
	// what it runs on. "" accepts any device.
	ExpectAdapter string
	// Repeat is how many times in all a fixture with images (Level 3)
	// that passes is sent, so that an image that differs between
	// attempts is found nondeterministic; under 2 sends it once.
	Repeat int
	// images are the fixtures with images, which Repeat sends again.
	images map[string]bool
}

// ReadFunc returns the bytes of a fixture by its corpus-relative path.
type ReadFunc func(rel string) ([]byte, error)

// Run sends every fixture of base that is not a corpus error to every
// implementation, all implementations at once and each one's fixtures in
// base's order, and returns one Implementation per command in the order
// given. Corpus errors are left out: they are about the corpus, not the
// implementations. A Go error means the run could not go on; when ctx
// ended it (a signal), the implementations returned with the error hold
// the fixtures answered before, and no process of theirs is left: not
// even a child that left their process groups, on Linux, where the
// harness is their orphans' subreaper.
func Run(ctx context.Context, cfg Config, base *model.Run, read ReadFunc) ([]model.Implementation, error) {
	cfg = withDefaults(cfg)
	cases, err := prepare(base, read)
	if err != nil {
		return nil, err
	}
	base.FixtureReadbacks = fixtureReadbacks(cases)
	cfg.images = imageFixtures(cfg, cases, read)
	becomeSubreaper()
	cfg.Progress.Add((len(cases) - cfg.Announced) * len(cfg.Commands))
	impls := make([]model.Implementation, len(cfg.Commands))
	var wg sync.WaitGroup
	for i, command := range cfg.Commands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			impls[i] = runOne(ctx, cfg, command, cases)
		}()
	}
	wg.Wait()
	endOrphans()
	for i := range impls {
		impls[i].Summary = model.Summarize(base.Summary.Discovered, impls[i].Results, nil)
	}
	// A stopped run still returns what ran: every result it holds is of
	// a fixture answered before the stop.
	return impls, ctx.Err()
}

func withDefaults(cfg Config) Config {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.MaxStderr <= 0 {
		cfg.MaxStderr = DefaultMaxStderr
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Env == nil {
		cfg.Env = os.Environ()
	}
	if cfg.Expect == nil {
		cfg.Expect = func(*model.Implementation, *model.Result) model.Expectation { return model.ExpectPass }
	}
	cfg.Env = childEnv(cfg.Env)
	return cfg
}

// testCase is one fixture ready to send: the runner's result for it (its
// path, name, class and expectation) and the stream.
type testCase struct {
	base     *model.Result
	data     []byte
	doc      fixtureDoc
	commands []json.RawMessage
	requests []Request
}

// fixtureReadbacks collects the QueueSubmitReply data the positive
// fixtures carry, the reference of the Level 3 preview.
func fixtureReadbacks(cases []testCase) map[string][][]byte {
	out := map[string][][]byte{}
	for i := range cases {
		c := &cases[i]
		if c.base.Class != model.ClassPositive {
			continue
		}
		var replies []json.RawMessage
		for _, raw := range c.commands {
			var head struct {
				Cmd string `json:"cmd"`
			}
			if json.Unmarshal(raw, &head) == nil && head.Cmd == "QueueSubmitReply" {
				replies = append(replies, raw)
			}
		}
		if data := readbackBytes(replies); len(data) > 0 {
			out[c.base.RelPath] = data
		}
	}
	return out
}

// readbackBytes decodes the data of every readback of replies, in order;
// data that is not base64, or is larger than model.MaxParityBytes, is nil.
func readbackBytes(replies []json.RawMessage) [][]byte {
	var out [][]byte
	for _, raw := range replies {
		var rep struct {
			Readbacks []struct {
				Data *string `json:"data"`
			} `json:"readbacks"`
		}
		if json.Unmarshal(raw, &rep) != nil {
			continue
		}
		for _, rb := range rep.Readbacks {
			var b []byte
			if rb.Data != nil && base64.StdEncoding.DecodedLen(len(*rb.Data)) <= model.MaxParityBytes+3 {
				if d, err := base64.StdEncoding.DecodeString(*rb.Data); err == nil && len(d) <= model.MaxParityBytes {
					b = d
					if b == nil {
						b = []byte{}
					}
				}
			}
			out = append(out, b)
		}
	}
	return out
}

// fixtureDoc is the part of a fixture file the harness sends or reports.
type fixtureDoc struct {
	Version      json.RawMessage `json:"version"`
	Capabilities json.RawMessage `json:"capabilities"`
	Commands     json.RawMessage `json:"commands"`
	Description  string          `json:"description"`
	Reason       string          `json:"reason"`
	Fix          string          `json:"fix"`
}

// prepare reads and decodes the fixtures once for all implementations.
// The runner has already validated their envelopes.
func prepare(base *model.Run, read ReadFunc) ([]testCase, error) {
	var cases []testCase
	for i := range base.Results {
		r := &base.Results[i]
		if r.IsCorpusError() {
			continue
		}
		data, err := read(r.RelPath)
		if err != nil {
			return nil, fmt.Errorf("%w: fixture %s: %w", runner.ErrInput, r.Path, err)
		}
		c := testCase{base: r, data: data}
		if err := json.Unmarshal(data, &c.doc); err != nil {
			return nil, fmt.Errorf("%w: fixture %s: %w", runner.ErrInput, r.Path, err)
		}
		// A schema-negative stream may hold anything, even non-objects:
		// it is sent as written and only its QueueSubmits are read.
		if err := json.Unmarshal(c.doc.Commands, &c.commands); err != nil {
			return nil, fmt.Errorf("%w: fixture %s: commands: %w", runner.ErrInput, r.Path, err)
		}
		if r.Class == model.ClassPositive {
			c.requests = Requests(c.commands)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// session is one implementation's run through the cases.
type session struct {
	ctx    context.Context
	cfg    Config
	argv   []string
	stderr *tail
	proc   *process
	hello  *protocol.Hello
	impl   *model.Implementation
	seq    int
	// timeouts counts the fixtures in a row left without an answer.
	timeouts int
	// stopped is why no more fixtures are sent, once that is so.
	stopped string
	// current is the index in impl.Results of the fixture being sent;
	// asked is what each seq sent to the running process was about, so
	// that an answer sent twice is charged to its own fixture.
	current     int
	currentCase *testCase
	asked       map[int]asked
	// memory holds the running process to its hello's memory_limit; nil
	// when it set none.
	memory *memoryWatch
}

// asked is a fixture sent to the running process: where its result is.
type asked struct {
	result int
	c      *testCase
}

func runOne(ctx context.Context, cfg Config, command string, cases []testCase) model.Implementation {
	im := model.Implementation{Command: command}
	start := cfg.Now()
	s := &session{ctx: ctx, cfg: cfg, stderr: newTail(cfg.MaxStderr), impl: &im}
	argv, err := SplitCommand(command)
	if err != nil {
		s.stopped = err.Error()
		im.Error = err.Error()
	}
	s.argv = argv
	if s.stopped == "" {
		// A start a stop cut short says nothing of the implementation.
		if err := s.start(); err != nil && ctx.Err() == nil {
			im.Error = err.Error()
			s.stopped = "the implementation could not be started: " + err.Error()
		}
	}
	if s.hello != nil {
		recordHello(&im, s.hello)
		if s.stopped == "" && cfg.ExpectAdapter != "" && !model.Glob(cfg.ExpectAdapter, im.Adapter.Description()) {
			im.Error = wrongDevice(&im, cfg.ExpectAdapter)
			s.stopped = im.Error
		}
	}
	if im.Executes {
		im.Level2 = map[string]bool{}
		im.Readbacks = map[string][][]byte{}
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		s.current = len(im.Results)
		res := s.one(&cases[i])
		if res.Passed && cfg.images[res.RelPath] && ctx.Err() == nil {
			s.repeat(&cases[i])
		}
		if ctx.Err() != nil {
			// The fixture in flight when the run was stopped did not
			// fail: its process was killed for the stop. It is left
			// out, as the fixtures never sent are.
			break
		}
		im.Results = append(im.Results, res)
		cfg.Progress.Did(!res.Passed && res.Actual.Outcome != model.NotClaimed)
	}
	switch {
	case s.proc == nil:
	case ctx.Err() != nil:
		// A stopped run ends its implementations at once: the time
		// after a signal is short (a runner kills the job seconds
		// later) and belongs to the reports.
		s.proc.kill()
	default:
		goodbye, _ := protocol.Encode(protocol.Goodbye{Type: protocol.TypeGoodbye})
		s.proc.stop(goodbye, time.Second)
	}
	im.Stderr = s.stderr.String()
	im.Duration = cfg.Now().Sub(start)
	return im
}

// recordHello keeps what the implementation said of itself, each text
// bounded.
func recordHello(im *model.Implementation, h *protocol.Hello) {
	im.Name, im.Version = escape.Cap(h.Name, escape.MessageBytes), escape.Cap(h.Version, escape.MessageBytes)
	for _, v := range h.DRP2Versions {
		im.DRP2Versions = append(im.DRP2Versions, escape.Cap(v, escape.MessageBytes))
	}
	im.Executes = h.Executes
	im.Protocol = h.Protocol
	if c := h.Capabilities; len(c) > 0 && len(c) <= maxCapabilities {
		im.Capabilities = append([]byte(nil), c...)
	}
	im.Phases = append([]string(nil), h.Phases...)
	if h.Phases == nil {
		im.Phases = nil
	}
	if a := h.Adapter; a != nil {
		c := func(v string) string { return escape.Cap(v, escape.MessageBytes) }
		im.Adapter = &model.GPUAdapter{Vendor: c(a.Vendor), Architecture: c(a.Architecture), Device: c(a.Device),
			Driver: c(a.Driver), Platform: c(a.Platform)}
	}
}

// wrongDevice says what an implementation on a device the run does not
// expect runs on, and what was expected instead.
func wrongDevice(im *model.Implementation, glob string) string {
	on := im.Adapter.Description()
	if on == "" {
		on = "a device its hello does not name"
	}
	return fmt.Sprintf("implementation %s runs on %s, not %s (the adapter the run expects): no fixture was sent to it", im.Label(), on, glob)
}

// start starts the implementation and completes the handshake.
func (s *session) start() error {
	mark := s.stderr.mark()
	p, err := startProcess(s.argv, s.cfg.Dir, s.cfg.Env, s.stderr, s.cfg.MaxLine)
	if err != nil {
		return err
	}
	s.asked = map[int]asked{}
	line, _ := protocol.Encode(protocol.Hello{Type: protocol.TypeHello, Protocol: protocol.ProtocolVersion})
	// A stopped run does not wait out a slow start either.
	stop := context.AfterFunc(s.ctx, p.kill)
	answer, err := p.exchange(line, time.Now().Add(s.cfg.StartTimeout))
	stop()
	var h *protocol.Hello
	if err == nil {
		h, err = protocol.DecodeHello(answer)
		switch {
		case err != nil:
			err = fmt.Errorf("bad hello: %v (it sent %s)", err, quoteLine(answer))
		case h.Error != "":
			// Its own reason, in full: the one thing a user needs to
			// read when there is no GPU adapter.
			err = fmt.Errorf("it cannot run here: %s", escape.Cap(h.Error, escape.MessageBytes))
			if s.hello == nil {
				s.hello = h
			}
		default:
			s.hello = h
		}
	}
	if err != nil {
		exited := false
		select {
		case <-p.exited:
			exited = true
		default:
		}
		p.kill() // waits for the process, and so for its stderr
		if out, cut := s.stderr.since(mark); exited && strings.TrimSpace(out) != "" {
			// Its own last words say why (node's "Cannot find module");
			// without them the status alone tells nothing.
			return fmt.Errorf("handshake: %w; its standard error ends:\n%s", err, stderrEnd(out, cut))
		}
		return fmt.Errorf("handshake: %w", err)
	}
	s.proc = p
	s.memory = newMemoryWatch(h)
	return nil
}

// The end of the stderr of an implementation that exited before the
// handshake, kept in its error: short enough to fit a report's message
// (escape.MessageBytes) after the words before it.
const (
	maxHandshakeStderrLines = 20
	maxHandshakeStderrBytes = 1536
)

// stderrEnd is the last lines of out, bounded, safe to print in a log.
func stderrEnd(out string, cut bool) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > maxHandshakeStderrLines {
		lines, cut = lines[len(lines)-maxHandshakeStderrLines:], true
	}
	return escape.LogLine(keepEnd(strings.Join(lines, "\n"), maxHandshakeStderrBytes, cut))
}

// one sends one fixture and judges the answer; a fixture the expectations
// skip is not sent. A fixture that fails with no expectations entry to
// excuse it is sent again, up to cfg.Retries more times, each time to a
// fresh process, until it passes: one that then passes is flaky, and its
// result keeps every attempt.
func (s *session) one(c *testCase) (res model.Result) {
	s.currentCase = c
	started := s.cfg.Now()
	defer func() { res.Duration = s.cfg.Now().Sub(started) }()
	expect := model.ExpectPass
	if s.hello != nil {
		expect = s.cfg.Expect(s.impl, c.base)
	}
	if expect == model.ExpectSkip {
		res = fresh(c.base)
		res.Actual = model.Actual{Outcome: model.Skipped, Message: "skipped: an expectations entry keeps it from this implementation"}
		return res
	}
	res = s.attempt(c)
	if res.Passed || expect != model.ExpectPass || s.cfg.Retries <= 0 || res.Actual.Outcome == model.NotClaimed {
		return res
	}
	attempts := []model.Actual{res.Actual}
	for n := 0; n < s.cfg.Retries && !res.Passed && s.stopped == "" && s.ctx.Err() == nil; n++ {
		s.endProcess()
		res = s.attempt(c)
		attempts = append(attempts, res.Actual)
	}
	if len(attempts) > 1 {
		res.Attempts = attempts
	}
	return res
}

// endProcess ends the implementation's process, so that the next attempt starts
// a new one: a fixture that fails because of what came before it in the
// same process (a leak, a poisoned cache) passes there.
func (s *session) endProcess() {
	if s.proc == nil {
		return
	}
	goodbye, _ := protocol.Encode(protocol.Goodbye{Type: protocol.TypeGoodbye})
	s.proc.stop(goodbye, time.Second)
	s.proc = nil
}

// attempt sends the fixture once and judges the answer. A failed exchange
// is a harness error for this fixture; the implementation is killed and
// started again for the next one.
func (s *session) attempt(c *testCase) (res model.Result) {
	res = fresh(c.base)
	// A fixture that fails in a phase the implementation does not perform
	// says nothing about it: it is not sent, and neither passes nor fails.
	if s.stopped == "" && s.hello != nil && c.base.Class != model.ClassPositive && !s.hello.Claims(c.base.Expected.Phase) {
		res.Actual = model.Actual{Outcome: model.NotClaimed,
			Message: fmt.Sprintf("not claimed: the implementation does not perform %s", c.base.Expected.Phase)}
		return res
	}
	if s.stopped == "" && s.proc == nil {
		s.impl.Restarts++
		if err := s.start(); err != nil {
			s.stopped = "the implementation could not be started again: " + err.Error()
		}
	}
	if s.stopped != "" {
		harnessError(&res, c, "not run: "+s.stopped)
		return res
	}
	mark := s.stderr.mark()
	v, err := s.ask(protocol.Fixture{Name: c.base.Name, Version: c.doc.Version,
		Capabilities: c.doc.Capabilities, Commands: c.doc.Commands})
	if err != nil {
		harnessError(&res, c, err.Error())
		if out, cut := s.stderr.since(mark); out != "" {
			res.Diagnostics = append(res.Diagnostics, model.Diagnostic{Source: "stderr", Message: lastBytes(out, cut)})
		}
		return res
	}
	s.judge(&res, c, v)
	return res
}

// ask sends one fixture message (its Type and Seq are filled in here) and
// reads the verdict. A failed exchange kills the process, so that the next
// fixture starts it again.
func (s *session) ask(f protocol.Fixture) (*protocol.Verdict, error) {
	s.seq++
	f.Type, f.Seq = protocol.TypeFixture, s.seq
	msg, err := protocol.Encode(f)
	if err != nil {
		return nil, fmt.Errorf("the fixture could not be encoded: %v", err)
	}
	// An interrupted run does not wait out the timeout: the process is
	// killed, which ends the exchange at once.
	p := s.proc
	s.asked[s.seq] = asked{result: s.current, c: s.currentCase}
	stop := context.AfterFunc(s.ctx, p.kill)
	deadline := time.Now().Add(s.cfg.Timeout)
	watching := s.memory.watch(p)
	answer, err := p.exchange(msg, deadline)
	for err == nil && s.answeredTwice(answer) {
		// The extra answer belongs to an earlier fixture, which it
		// fails; this one is judged on its own answer, still to come.
		answer, err = p.read(deadline)
	}
	over := watching()
	stop()
	if over > 0 {
		// Killed past its limit, whatever it answered meanwhile: the
		// next fixture starts a new process.
		s.proc.kill()
		s.proc = nil
		s.timeouts = 0
		return s.memory.overMemory(s.seq, over), nil
	}
	var v *protocol.Verdict
	if err == nil {
		if v, err = protocol.DecodeVerdict(answer, s.seq, s.hello.Protocol); err != nil {
			err = fmt.Errorf("%v (it sent %s)", err, quoteLine(answer))
		}
	}
	if err != nil {
		s.proc.kill()
		s.proc = nil
		s.countTimeout(err)
		return nil, err
	}
	s.timeouts = 0
	return v, nil
}

// answeredTwice reports whether answer is a second verdict for a fixture
// the running process answered already, and then fails that fixture for
// it: the extra answer is that fixture's error (its implementation's), not
// the error of the fixture that was sent next and is waiting for its own.
func (s *session) answeredTwice(answer []byte) bool {
	var head struct {
		Type string `json:"type"`
		Seq  int    `json:"seq"`
	}
	if json.Unmarshal(answer, &head) != nil || head.Type != protocol.TypeVerdict || head.Seq >= s.seq {
		return false
	}
	a, ok := s.asked[head.Seq]
	if !ok || a.result >= len(s.impl.Results) {
		return false
	}
	res := &s.impl.Results[a.result]
	res.Passed = false
	res.Actual = model.Actual{Outcome: model.HarnessError, Message: fmt.Sprintf(
		"answered twice: implementation %s sent a second verdict for this fixture (seq %d) while the harness waited for its answer to fixture %s (seq %d); an implementation answers each fixture once",
		escape.Cap(s.impl.Label(), escape.MessageBytes), head.Seq, escape.Cap(s.currentCase.base.Name, escape.MessageBytes), s.seq)}
	res.Attempts = nil
	if s.impl.Level2 != nil {
		s.impl.Level2[res.RelPath] = false
		delete(s.impl.Readbacks, res.RelPath)
	}
	explainFailure(res, a.c, -1)
	return true
}

// countTimeout counts a failed exchange that was a timeout (any other
// failure ends the run of timeouts) and stops the session at
// maxTimeoutsInARow: a hung implementation is not restarted for every
// remaining fixture.
func (s *session) countTimeout(err error) {
	var te *timeoutError
	if !errors.As(err, &te) {
		s.timeouts = 0
		return
	}
	s.timeouts++
	if s.timeouts >= maxTimeoutsInARow {
		s.stopped = fmt.Sprintf("stopped after %d fixtures in a row without an answer within the timeout (%v)", s.timeouts, s.cfg.Timeout)
	}
}

// judge compares a verdict with the fixture's expectation through the
// runner's own matching (Level 1), then for an executing implementation
// checks the replies of a positive fixture (Level 2).
func (s *session) judge(res *model.Result, c *testCase, v *protocol.Verdict) {
	var f *model.Failure
	unphased := v.Outcome == string(model.Error) && v.Phase == ""
	if v.Outcome == string(model.Error) {
		f = &model.Failure{Phase: model.Phase(escape.Cap(v.Phase, escape.MessageBytes)), Code: escape.Cap(v.Code, escape.MessageBytes), CommandIndex: -1}
		if v.CommandIndex != nil {
			f.CommandIndex = *v.CommandIndex
		}
		// An implementation that does not know the phase (protocol 2)
		// is judged on the code and command index alone: the runner's
		// matching is asked with the expected phase, and the result
		// shows none.
		if unphased {
			f.Phase = model.Phase(res.Expected.Phase)
		}
	}
	res.Actual, res.Passed = runner.Match(res.Expected, res.Class, f)
	// The runner's message explains its own verdicts; an implementation
	// speaks for itself.
	res.Actual.Message = escape.Cap(v.Message, escape.MessageBytes)
	if unphased {
		res.Actual.Phase = ""
		res.Actual.Message = strings.TrimSuffix("phase not reported; "+res.Actual.Message, "; ")
	}
	spanAt := -1
	if res.Actual.CommandIndex != nil {
		spanAt = *res.Actual.CommandIndex
	}
	if s.impl.Executes && res.Class == model.ClassPositive {
		ok := res.Passed
		if ok {
			if e := CheckReplies(c.requests, v.Replies); e != nil {
				ok, res.Passed = false, false
				res.Actual.Message = "Level 2: " + e.Message
				res.Actual.Rule = level2Rule
				spanAt = e.Command
			}
		}
		s.impl.Level2[res.RelPath] = ok
		if ok && len(c.requests) > 0 {
			s.impl.Readbacks[res.RelPath] = readbackBytes(v.Replies)
		}
	}
	if !res.Passed {
		explainFailure(res, c, spanAt)
	}
}

// fresh is a result for an implementation that starts from the runner's
// result for the fixture: what the fixture is, none of what happened.
func fresh(b *model.Result) model.Result {
	return model.Result{Path: b.Path, RelPath: b.RelPath, Folder: b.Folder, Name: b.Name, Class: b.Class,
		Tags: b.Tags, Expected: b.Expected, Digest: b.Digest}
}

func harnessError(res *model.Result, c *testCase, msg string) {
	res.Actual = model.Actual{Outcome: model.HarnessError, Message: msg}
	res.Passed = false
	explainFailure(res, c, -1)
}

// explainFailure keeps the fixture's prose and locates the failure: the
// command the implementation blamed, else the expected block.
func explainFailure(res *model.Result, c *testCase, command int) {
	res.Description, res.Reason, res.Fix = c.doc.Description, c.doc.Reason, c.doc.Fix
	pointers := []string{"/expected"}
	if command >= 0 {
		pointers = append([]string{fmt.Sprintf("/commands/%d", command)}, pointers...)
	}
	for _, p := range pointers {
		if start, end, ok := jsonpos.Find(c.data, p); ok {
			sp := model.Span(jsonpos.Span(c.data, start, end))
			res.Span = &sp
			return
		}
	}
}

// quoteLine shows the start of an answer line in an error message.
func quoteLine(b []byte) string {
	const max = 200
	if len(b) > max {
		return fmt.Sprintf("%q…", b[:max])
	}
	return fmt.Sprintf("%q", b)
}

// lastBytes keeps the end of a fixture's stderr, where a crash says why.
func lastBytes(s string, cut bool) string {
	return keepEnd(s, maxFixtureStderr, cut)
}

// keepEnd keeps the last max bytes of s as valid UTF-8, and says so when
// output was dropped, here or already before s (cut).
func keepEnd(s string, max int, cut bool) string {
	if len(s) > max {
		s, cut = s[len(s)-max:], true
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if cut {
		return "[earlier output dropped]\n" + s
	}
	return s
}
