package harness

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
)

// Readback is one entry of a QueueSubmit's readbacks, numbers as written.
type Readback struct {
	BufferID json.Number `json:"buffer_id"`
	Offset   json.Number `json:"offset"`
	Size     json.Number `json:"size"`
}

// Request is a QueueSubmit with a non-empty readbacks list: it asks for
// exactly one QueueSubmitReply (COMMANDS.md, QueueSubmit rule 6 and
// QueueSubmitReply rule 5).
type Request struct {
	// Command is the zero-based index of the QueueSubmit in the stream.
	Command      int
	SubmissionID json.Number
	Readbacks    []Readback
}

// Requests returns the readback requests of a stream in stream order.
// Commands that are not objects, or QueueSubmits without readbacks, ask for
// nothing.
func Requests(commands []json.RawMessage) []Request {
	var out []Request
	for i, raw := range commands {
		var c struct {
			Cmd          string      `json:"cmd"`
			SubmissionID json.Number `json:"submission_id"`
			Readbacks    []Readback  `json:"readbacks"`
		}
		if err := decodeNumbers(raw, &c); err != nil || c.Cmd != "QueueSubmit" || len(c.Readbacks) == 0 {
			continue
		}
		out = append(out, Request{Command: i, SubmissionID: c.SubmissionID, Readbacks: c.Readbacks})
	}
	return out
}

// ShapeError is a Level 2 failure: a reply that does not mirror its
// request.
type ShapeError struct {
	// Command is the index of the QueueSubmit concerned, or -1 when the
	// failure is about replies no request asked for.
	Command int
	Message string
}

func (e *ShapeError) Error() string { return e.Message }

// CheckReplies checks an implementation's QueueSubmitReply messages against
// the requests of the stream (CONFORMANCE.md, Level 2 rule 2; COMMANDS.md,
// QueueSubmitReply rules 2-4): one reply per request, in request order,
// with the same submission_id and the same buffer_id, offset and size
// entries in the same order, each data decoding to exactly size bytes.
// The data's value is not checked: that is Level 3, deferred.
func CheckReplies(requests []Request, replies []json.RawMessage) *ShapeError {
	for i, req := range requests {
		where := fmt.Sprintf("reply %d of %d (for the QueueSubmit at command %d)", i+1, len(requests), req.Command)
		if i >= len(replies) {
			return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s is missing: %d QueueSubmit commands asked for readbacks, %d replies came", where, len(requests), len(replies))}
		}
		var rep struct {
			Cmd          string      `json:"cmd"`
			SubmissionID json.Number `json:"submission_id"`
			Readbacks    []struct {
				Readback
				Data *string `json:"data"`
			} `json:"readbacks"`
		}
		if err := decodeNumbers(replies[i], &rep); err != nil {
			return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s is not a QueueSubmitReply object: %v", where, err)}
		}
		if rep.Cmd != "QueueSubmitReply" {
			return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s has cmd %q, not \"QueueSubmitReply\"", where, rep.Cmd)}
		}
		if !sameNumber(rep.SubmissionID, req.SubmissionID) {
			return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s has submission_id %s; the request has %s", where, show(rep.SubmissionID), show(req.SubmissionID))}
		}
		if len(rep.Readbacks) != len(req.Readbacks) {
			return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s has %d readbacks; the request asked for %d", where, len(rep.Readbacks), len(req.Readbacks))}
		}
		for j, got := range rep.Readbacks {
			want := req.Readbacks[j]
			for _, f := range []struct {
				name      string
				got, want json.Number
			}{{"buffer_id", got.BufferID, want.BufferID}, {"offset", got.Offset, want.Offset}, {"size", got.Size, want.Size}} {
				if !sameNumber(f.got, f.want) {
					return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s, readback %d: %s is %s; the request has %s", where, j, f.name, show(f.got), show(f.want))}
				}
			}
			if got.Data == nil {
				return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s, readback %d: data is missing", where, j)}
			}
			data, err := base64.StdEncoding.DecodeString(*got.Data)
			if err != nil {
				return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s, readback %d: data is not base64: %v", where, j, err)}
			}
			if size, err := want.Size.Int64(); err == nil && int64(len(data)) != size {
				return &ShapeError{Command: req.Command, Message: fmt.Sprintf("%s, readback %d: data holds %d bytes; size is %d", where, j, len(data), size)}
			}
		}
	}
	if len(replies) > len(requests) {
		return &ShapeError{Command: -1, Message: fmt.Sprintf("%d replies came, but only %d QueueSubmit commands asked for readbacks", len(replies), len(requests))}
	}
	return nil
}

// decodeNumbers decodes raw into v keeping numbers as written.
func decodeNumbers(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// sameNumber compares two JSON numbers by exact value (1, 1.0 and 1e0 are
// the same id); an absent number equals only another absent one.
func sameNumber(a, b json.Number) bool {
	// big.Float rather than big.Rat: a Rat would expand an exponent such
	// as 1e999999999 that an implementation may send.
	x, okA := new(big.Float).SetPrec(256).SetString(string(a))
	y, okB := new(big.Float).SetPrec(256).SetString(string(b))
	if okA && okB {
		return x.Cmp(y) == 0
	}
	return a == b
}

func show(n json.Number) string {
	if n == "" {
		return "absent"
	}
	return n.String()
}
