package runner

// One fixture through the phases in order, with first-failure semantics:
// read and decode, the fixture envelope, the command schema, then the
// checker's semantic and capability phases.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// fixtureJob runs single fixtures; it is shared by the workers and holds no
// per-fixture state.
type fixtureJob struct {
	corpus   *corpus
	schemas  *schemas
	commands *commandPhase
	// envelopes keeps the envelopes found valid by their shape; nil when
	// the fixture schema does not allow it.
	envelopes *envelopeShapes
	checker   Checker
	now       func() time.Time
	limit     int64
	largest   *largestSeen
	name      string
	tags      []string
	budget    time.Duration // <= 0: none
	// overBudget is the cause of a fixture's stop at budget.
	overBudget error
	progress   *Progress
}

// run runs one fixture through every phase. It reports false when the
// fixture is filtered out by name or tag. When ctx ends, the phases stop
// early and the fixture is reported as not judged, with ctx's cause.
func (j *fixtureJob) run(ctx context.Context, rel string) (res model.Result, keep bool) {
	start := j.now()
	res = model.Result{Path: j.corpus.display(rel), RelPath: rel, Folder: folderOf(rel), Name: stem(rel)}
	defer func() {
		if p := recover(); p != nil {
			// A bug in a phase must cost one fixture, not the run.
			res.Actual = model.Actual{Outcome: model.Error, Code: "DRP2_ERR_INTERNAL",
				Message: fmt.Sprintf("internal error while running the fixture: %v", p)}
			res.Passed = false
			keep = true
		}
		res.Duration = j.now().Sub(start)
	}()

	var mem fixtureMemory
	// Deferred after the recover above, so it runs first: nothing made
	// from data outlives this call but copies.
	defer mem.free()
	var sums digester
	defer sums.wait() // runs before mem.free: the sums read the fixture's bytes
	data, fx, cerr := j.readAndDecode(rel, &mem, &sums, &res.Digest)
	if cerr == nil {
		cerr = j.checkEnvelope(fx)
		// The stand-ins of the commands served the envelope phase only; a
		// long stream should not hold them through the later phases.
		delete(fx.doc, "commands")
	}
	if cerr != nil {
		// The name and tags are unknown: a name or tag filter cannot
		// select this file, but a run without them always shows it.
		if j.name != "" || len(j.tags) > 0 {
			return res, false
		}
		res.Actual = model.Actual{Outcome: model.CorpusError, Phase: model.PhaseEnvelope, Message: cerr.msg}
		res.Span = cerr.span
		if res.Span == nil && data != nil {
			res.Span = spanAt(data, cerr.offset)
		}
		return res, true
	}

	res.Name = fx.str("name")
	res.Tags = fx.tags()
	if !j.selected(res.Name, res.Tags) {
		return res, false
	}
	res.Expected = fx.expected()
	res.Class = classify(res.Expected)

	failure, found := j.phases(ctx, fx, res.RelPath, res.Class)
	if failure == nil && ctx.Err() != nil {
		failure = &model.Failure{Unjudged: true, Message: fmt.Sprintf("not judged: %v", context.Cause(ctx))}
	}
	if failure != nil && failure.Unjudged {
		// No verdict: not a match or a mismatch, and whatever the checker
		// found on the way is not reported either.
		res.Actual = model.Actual{Outcome: model.CorpusError, Phase: failure.Phase, Message: failure.Message}
		if failure.CommandIndex >= 0 {
			idx := failure.CommandIndex
			res.Actual.CommandIndex = &idx
			res.Span = failureSpan(fx.data, failure)
		}
		return res, true
	}
	for _, f := range found {
		f.Path = res.Path
		res.Findings = append(res.Findings, f)
	}
	res.Actual, res.Passed = match(res.Expected, res.Class, failure)
	if !res.Passed {
		res.Span = failureSpan(fx.data, failure)
		// Only mismatches are explained in reports; not keeping the prose
		// of passing fixtures keeps a 50,000-fixture run small.
		res.Description, res.Reason, res.Fix = fx.str("description"), fx.str("reason"), fx.str("fix")
	}
	return res, true
}

func (j *fixtureJob) selected(name string, tags []string) bool {
	if j.name != "" && !strings.Contains(name, j.name) {
		return false
	}
	for _, want := range j.tags {
		found := false
		for _, t := range tags {
			if t == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// checkEnvelope runs the fixture-envelope phase: the envelope schema, then
// the positive happy-path prefix rule of FORMAT.md, which holds whatever
// fixture schema is in use. It also locates the commands for later phases.
func (j *fixtureJob) checkEnvelope(fx *fixture) *corpusError {
	if err := j.validateEnvelope(fx.doc); err != nil {
		var out *schema.ExhaustedError
		if errors.As(err, &out) {
			// The schema, not the fixture, cannot be used; the message
			// names it, and the fixture is not judged.
			return &corpusError{msg: fmt.Sprintf("fixture envelope: not judged: the fixture schema %s: %v", j.schemas.fixtureSource.Source, out), offset: -1}
		}
		pointer, msg := leafError(err)
		if p := fx.envelopePointer(pointer); p != pointer {
			msg = p + strings.TrimPrefix(msg, pointer)
			pointer = p
		}
		return &corpusError{msg: "fixture envelope: " + msg, offset: -1, span: spanOf(fx.data, pointer)}
	}
	commands, ok := fx.doc["commands"].([]any)
	if !ok {
		return &corpusError{msg: `fixture envelope: "commands" must be an array`, offset: -1, span: spanOf(fx.data, "/commands")}
	}
	if outcome, _ := fx.doc["expected"].(map[string]any)["outcome"].(string); outcome == string(model.Success) {
		for i, want := range []string{"HelloRenderer", "RendererHelloReply"} {
			var got any
			if i < len(commands) {
				got, _ = commands[i].(map[string]any)["cmd"]
			}
			if got != want {
				return &corpusError{msg: fmt.Sprintf("fixture envelope: a positive stream must start with HelloRenderer then RendererHelloReply (FORMAT.md); command %d is not %s", i, want),
					offset: -1, span: firstSpan(fx.data, fmt.Sprintf("/commands/%d", i), "/commands")}
			}
		}
	}
	return nil
}

// validateEnvelope is the envelope schema's verdict on doc: from the
// envelope cache when an envelope of the same shape passed, else from the
// schema library.
func (j *fixtureJob) validateEnvelope(doc map[string]any) error {
	if j.envelopes == nil {
		return j.schemas.ValidateEnvelope(any(doc))
	}
	// The key is built in a buffer with room for a usual envelope's, kept
	// from one fixture to the next.
	buf := keyBuffers.Get().(*[]byte)
	defer putKeyBuffer(buf)
	key, shaped := envelopeKey(doc, &j.envelopes.shape, (*buf)[:0])
	*buf = key[:0]
	if shaped {
		if j.envelopes.passed.has(key) {
			return nil
		}
	}
	err := j.schemas.ValidateEnvelope(any(doc))
	if err == nil && shaped {
		j.envelopes.passed.add(key)
	}
	return err
}

// readAndDecode reads the fixture rel into mem and decodes it, and has
// sums sum its digest into out.
func (j *fixtureJob) readAndDecode(rel string, mem *fixtureMemory, sums *digester, out *model.Digest) ([]byte, *fixture, *corpusError) {
	data, cerr := readFixture(j.corpus.fsys, rel, j.limit, mem)
	j.largest.saw(int64(len(data)))
	sums.start(data, out)
	var fx *fixture
	if cerr == nil {
		fx, cerr = decodeFixture(data, mem)
	}
	sums.decoded(fx)
	return data, fx, cerr
}

// phases runs the DRP phases in order and returns the first failure, or
// nil, and the checker's findings. Schema negatives stop after the command
// schema (RUNNER.md). A long stream's checker may run beside the command
// schema (see overlapped); the verdict is the same.
func (j *fixtureJob) phases(ctx context.Context, fx *fixture, rel string, class model.Class) (*model.Failure, []model.Finding) {
	if class != model.ClassSchemaNegative && j.checker != nil && overlaps(j.checker, len(fx.commands)) {
		return j.overlapped(ctx, fx, streamOf(fx, rel))
	}
	if f := j.commands.checkCommands(fx.commands, ctx.Done()); f != nil {
		return f, nil
	}
	if class == model.ClassSchemaNegative || j.checker == nil || ctx.Err() != nil {
		return nil, nil
	}
	return j.checker.Check(ctx, streamOf(fx, rel), nil)
}

// streamOf is the checker's view of a fixture.
func streamOf(fx *fixture, rel string) model.Stream {
	stream := model.Stream{Path: rel, Commands: fx.commands}
	if v, ok := fx.doc["version"].(map[string]any); ok {
		stream.Version.Major, _ = v["major"].(json.Number)
		stream.Version.Minor, _ = v["minor"].(json.Number)
		if p, ok := v["patch"].(json.Number); ok {
			stream.Version.Patch = &p
		}
	}
	// decodeFixture located every top-level member already.
	if raw, ok := fx.member("capabilities"); ok {
		stream.Capabilities = raw
	}
	return stream
}
