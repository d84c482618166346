package harness

import (
	"encoding/json"
	"testing"
)

// FuzzAnswers feeds arbitrary answer lines to the decoders and the reply
// check: whatever an implementation prints, the harness must not panic.
func FuzzAnswers(f *testing.F) {
	f.Add([]byte(`{"type":"verdict","seq":1,"outcome":"success","replies":[{"cmd":"QueueSubmitReply","submission_id":10,"readbacks":[{"buffer_id":1,"offset":0,"size":4,"data":"AAAAAA=="}]}]}`))
	f.Add([]byte(`{"type":"hello","protocol":1,"name":"x"}`))
	f.Add([]byte(`{"type":"verdict","seq":1,"outcome":"error","phase":"p","code":"c","command_index":1e99}`))
	f.Add([]byte(`{"type":"verdict","seq":1,"outcome":"success","replies":[{"submission_id":1e999999999,"readbacks":[{"size":-1,"data":7}]}]}`))
	requests := Requests([]json.RawMessage{json.RawMessage(`{"cmd":"QueueSubmit","command_buffer_ids":[3],"submission_id":10,"readbacks":[{"buffer_id":1,"offset":0,"size":4}]}`)})
	f.Fuzz(func(t *testing.T, line []byte) {
		_, _ = DecodeHello(line)
		v, err := DecodeVerdict(line, 1, ProtocolVersion)
		if err != nil {
			return
		}
		_ = CheckReplies(requests, v.Replies)
		_ = Requests(v.Replies)
	})
}
