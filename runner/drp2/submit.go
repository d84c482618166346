package drp2

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// submission is a QueueSubmit with readbacks that awaits its reply.
type submission struct {
	id        ID
	index     int
	readbacks []readback
}

type readback struct {
	id     ID
	offset Num
	size   Num
}

// queueSubmit checks each listed command buffer (listed twice, then
// resolved, then not yet submitted), then the submission_id that readbacks
// need, then each readback's buffer, usage and range.
func (s *state) queueSubmit() *model.Failure {
	ids := s.w.CommandBufferIDs
	cbs := make([]*object, 0, len(ids))
	listed := make(map[ID]int, len(ids))
	for i, v := range ids {
		ptr := bufferIDPointers.at(i, "")
		n, f := s.num(v, ptr)
		if f != nil {
			return f
		}
		j, twice := listed[n.id]
		if s.broken(ruleSubmitListedTwice, twice) {
			return s.fail(ruleSubmitListedTwice, ptr, "command buffer %s is listed twice in this submission (entries %d and %d)", n.id, j, i)
		}
		listed[n.id] = i
		cb, f := s.resolve(v, ptr, kindCommandBuffer)
		if f != nil {
			return f
		}
		if s.broken(ruleResubmit, cb.cb().submitted) {
			// ERRORS.md, State Versus Usage rule 4: resubmission.
			return s.fail(ruleResubmit, ptr, "%s was already submitted; a command buffer may be submitted at most once", cb)
		}
		cbs = append(cbs, cb)
	}
	var sub *submission
	if len(s.w.Readbacks) > 0 {
		if s.broken(ruleSubmissionID, s.w.SubmissionID == "") {
			return s.fail(ruleSubmissionID, "/submission_id", "a submission with readbacks needs a submission_id for its reply")
		}
		n, f := s.num(s.w.SubmissionID, "/submission_id")
		if f != nil {
			return f
		}
		sub = &submission{id: n.id, index: s.idx}
	}
	for i, r := range s.w.Readbacks {
		ptr := readbackPointers.at(i, "")
		buf, f := s.resolve(r.BufferID, readbackPointers.at(i, "/buffer_id"), kindBuffer)
		if f != nil {
			return f
		}
		if f := s.requireUsage(ruleReadbackUsage, buf, buf.buf().usage, useMapRead, readbackPointers.at(i, "/buffer_id"), "a readback source"); f != nil {
			return f
		}
		off, size, f := s.byteRange(readbackPointers.at(i, "/offset"), readbackPointers.at(i, "/size"), r.Offset, r.Size)
		if f != nil {
			return f
		}
		if f := s.checkRange(ruleReadbackRange, buf, off, size, ptr); f != nil {
			return f
		}
		sub.readbacks = append(sub.readbacks, readback{id: buf.id, offset: off, size: size})
	}
	for _, cb := range cbs {
		cb.cb().submitted = true
	}
	if sub != nil {
		s.addPending(sub)
	}
	return nil
}

// addPending queues a submission for its reply. A submission that reuses
// the id of one still awaiting its reply takes that one's place: the prose
// does not say, and the upstream runner keeps one pending request per id,
// the latest.
func (s *state) addPending(sub *submission) {
	if s.pendingIDs.get(sub.id) > 0 {
		for i, p := range s.pending {
			if p.id == sub.id {
				s.charge(i)
				s.pending[i] = sub
				return
			}
		}
	}
	s.pending = append(s.pending, sub)
	s.pendingIDs.add(sub.id, 1)
}

// queueSubmitReply matches a pending submission: replies mirror the request
// exactly and come in submission order (LIFETIMES.md, Readback
// Lifetime rules 5-8 and consequences 3-4). Reply data that is not size
// bytes of padded base64 breaks rule 9, but CONFORMANCE.md (Level 2, rule 3)
// leaves reply data unverified in 2.0 and the upstream positive corpus
// carries such a reply, so it is reported as a finding, not a failure.
func (s *state) queueSubmitReply() *model.Failure {
	n, f := s.num(s.w.SubmissionID, "/submission_id")
	if f != nil {
		return f
	}
	if s.broken(ruleReplyPending, s.pendingIDs.get(n.id) == 0) {
		if len(s.pending) == 0 {
			return s.fail(ruleReplyPending, "/submission_id", "submission_id %s matches no pending submission with readbacks; none is pending", n.id)
		}
		return s.fail(ruleReplyPending, "/submission_id", "submission_id %s matches no pending submission with readbacks (next expected: %s from command %d)",
			n.id, s.pending[0].id, s.pending[0].index)
	}
	// The reply mirrors the request it names (as the upstream runner
	// compares them); that it comes in submission order is checked after,
	// since the upstream runner does not check it.
	head, want := s.pending[0], s.pending[0]
	for i, p := range s.pending {
		if p.id == n.id {
			want = p
			s.charge(i)
			break
		}
	}
	if s.broken(ruleReplyMirror, len(s.w.Readbacks) != len(want.readbacks)) {
		return s.fail(ruleReplyMirror, "/readbacks", "reply has %d readback(s) but submission %s (command %d) requested %d",
			len(s.w.Readbacks), want.id, want.index, len(want.readbacks))
	}
	for i, r := range s.w.Readbacks {
		ptr := readbackPointers.at(i, "")
		req := want.readbacks[i]
		b, f := s.num(r.BufferID, readbackPointers.at(i, "/buffer_id"))
		if f != nil {
			return f
		}
		off, size, f := s.byteRange(readbackPointers.at(i, "/offset"), readbackPointers.at(i, "/size"), r.Offset, r.Size)
		if f != nil {
			return f
		}
		if s.broken(ruleReplyMirror, b.id != req.id || cmp(off, req.offset) != 0 || cmp(size, req.size) != 0) {
			return s.fail(ruleReplyMirror, ptr, "readback %d is buffer %s offset %s size %s but the request was buffer %s offset %s size %s",
				i, b.id, off, size, req.id, req.offset, req.size)
		}
	}
	if s.broken(ruleReplyOrder, head.id != n.id) {
		return s.fail(ruleReplyOrder, "/submission_id", "reply for submission %s arrives before the reply for submission %s (command %d); replies follow submission order",
			n.id, head.id, head.index)
	}
	for i, r := range s.w.Readbacks {
		s.replyData(r.Data, head.readbacks[i].size, readbackPointers.at(i, "/data"))
	}
	s.pending[0] = nil
	s.pending = s.pending[1:]
	s.pendingIDs.add(head.id, -1)
	return nil
}

// replyData notes a finding when a reply's data is absent, not padded
// base64, or not exactly size bytes (LIFETIMES.md, Readback Lifetime rule
// 9).
func (s *state) replyData(data *string, size Num, pointer string) {
	problem := ""
	if data == nil {
		problem = "is missing"
	} else if n, err := decodedLen(*data, &s.scratch); err != nil {
		problem = fmt.Sprintf("is not padded base64 (%v)", err)
		if m, ok := unpaddedLen(*data, &s.scratch); ok && cmp(small(uint64(m)), size) != 0 {
			problem += fmt.Sprintf(", and read without padding it decodes to %d bytes, not the %s bytes of the readback", m, size)
		}
	} else if cmp(small(uint64(n)), size) != 0 {
		problem = fmt.Sprintf("decodes to %d bytes, not the %s bytes of the readback", n, size)
	}
	if s.broken(ruleReplyData, problem != "") {
		s.findings = append(s.findings, model.Finding{Kind: model.FindingReadbackData,
			Message: fmt.Sprintf("command %d QueueSubmitReply: %s %s (%s)", s.idx, field(pointer), problem, ruleReplyData.id)})
	}
}

// unpaddedLen decodes base64 whose padding is missing or partial, to say
// how many bytes a reply carries even when its encoding is wrong.
func unpaddedLen(data string, scratch *[]byte) (int, bool) {
	data = strings.TrimRight(data, "=")
	need := base64.RawStdEncoding.DecodedLen(len(data)) + 3
	if cap(*scratch) < need {
		*scratch = make([]byte, need)
	}
	n, err := base64.RawStdEncoding.Decode((*scratch)[:need], []byte(data))
	return n, err == nil
}
