package drp2

import (
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

// submission is a QueueSubmit with readbacks that awaits its reply.
type submission struct {
	id        ID
	index     int
	readbacks []readback
}

type readback struct {
	buffer *object
	id     ID
	offset Num
	size   Num
}

func (s *state) queueSubmit() *model.Failure {
	ids := s.w.CommandBufferIDs
	if len(ids) == 0 {
		return s.fail(codeInvalidArgument, "/command_buffer_ids", "command_buffer_ids must list at least one command buffer")
	}
	cbs := make([]*object, 0, len(ids))
	for i, v := range ids {
		ptr := "/command_buffer_ids/" + strconv.Itoa(i)
		cb, f := s.resolve(v, ptr, kindCommandBuffer)
		if f != nil {
			return f
		}
		if cb.cb.submitMark == s.idx {
			// LIFETIMES.md, Command Buffer Lifetime rule 6.
			return s.fail(codeInvalidArgument, ptr, "%s is listed more than once in this submission", cb)
		}
		cb.cb.submitMark = s.idx
		if cb.cb.submitted {
			// ERRORS.md, State Versus Usage rule 4: resubmission.
			return s.fail(codeInvalidState, ptr, "%s was already submitted; a command buffer may be submitted at most once", cb)
		}
		cbs = append(cbs, cb)
	}
	var rbs []readback
	for i, r := range s.w.Readbacks {
		ptr := "/readbacks/" + strconv.Itoa(i)
		buf, f := s.resolve(r.BufferID, ptr+"/buffer_id", kindBuffer)
		if f != nil {
			return f
		}
		off, f := s.num(r.Offset, ptr+"/offset")
		if f != nil {
			return f
		}
		size, f := s.num(r.Size, ptr+"/size")
		if f != nil {
			return f
		}
		// LIFETIMES.md, Readback Lifetime rules 2-3.
		if f := s.requireUsage(buf, buf.buf.usage, useMapRead, ptr+"/buffer_id", "a readback source"); f != nil {
			return f
		}
		if f := s.checkRange(buf, off.val, size.val, ptr); f != nil {
			return f
		}
		rbs = append(rbs, readback{buffer: buf, id: buf.id, offset: off.val, size: size.val})
	}
	var sub *submission
	if len(rbs) > 0 {
		// Rule 4: readbacks need a submission_id for their reply.
		n, f := s.num(s.w.SubmissionID, "/submission_id")
		if f != nil {
			return f
		}
		sub = &submission{id: n.id, index: s.idx, readbacks: rbs}
	}
	for _, cb := range cbs {
		cb.cb.submitted = true
	}
	if sub != nil {
		s.pending = append(s.pending, sub)
		s.pendingIDs[sub.id]++
		for _, r := range rbs {
			r.buffer.pendingReadbacks++
		}
	}
	return nil
}

// queueSubmitReply matches the oldest pending submission: replies come in
// submission order and mirror the request exactly (LIFETIMES.md, Readback
// Lifetime rules 5-8 and consequences 3-4). The data payload is not judged:
// CONFORMANCE.md (Level 2, rule 3) leaves reply data unverified in 2.0, and
// the upstream positive corpus carries a reply whose data is not exactly
// size bytes (pressure_picking_readback), so rule 9 is not enforced here.
func (s *state) queueSubmitReply() *model.Failure {
	n, f := s.num(s.w.SubmissionID, "/submission_id")
	if f != nil {
		return f
	}
	if len(s.pending) == 0 {
		return s.fail(codeInvalidState, "/submission_id", "submission_id %s matches no pending submission with readbacks; none is pending", n.id)
	}
	head := s.pending[0]
	if head.id != n.id {
		if s.pendingIDs[n.id] > 0 {
			return s.fail(codeInvalidState, "/submission_id", "reply for submission %s arrives before the reply for submission %s (command %d); replies follow submission order",
				n.id, head.id, head.index)
		}
		return s.fail(codeInvalidState, "/submission_id", "submission_id %s matches no pending submission with readbacks (next expected: %s from command %d)",
			n.id, head.id, head.index)
	}
	if len(s.w.Readbacks) != len(head.readbacks) {
		return s.fail(codeInvalidArgument, "/readbacks", "reply has %d readback(s) but submission %s (command %d) requested %d",
			len(s.w.Readbacks), head.id, head.index, len(head.readbacks))
	}
	for i, r := range s.w.Readbacks {
		ptr := "/readbacks/" + strconv.Itoa(i)
		want := head.readbacks[i]
		b, f := s.num(r.BufferID, ptr+"/buffer_id")
		if f != nil {
			return f
		}
		off, f := s.num(r.Offset, ptr+"/offset")
		if f != nil {
			return f
		}
		size, f := s.num(r.Size, ptr+"/size")
		if f != nil {
			return f
		}
		if b.id != want.id || cmp(off.val, want.offset) != 0 || cmp(size.val, want.size) != 0 {
			return s.fail(codeInvalidArgument, ptr, "readback %d is buffer %s offset %s size %s but the request was buffer %s offset %s size %s",
				i, b.id, off.val, size.val, want.id, want.offset, want.size)
		}
	}
	s.pending[0] = nil
	s.pending = s.pending[1:]
	if s.pendingIDs[head.id]--; s.pendingIDs[head.id] == 0 {
		delete(s.pendingIDs, head.id)
	}
	for _, r := range head.readbacks {
		r.buffer.pendingReadbacks--
	}
	return nil
}
