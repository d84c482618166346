package drp2

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

// FuzzCheck feeds arbitrary streams to the checker: whatever arrives, it
// must return nil or a failure with a known phase and a command index in
// range, never panic, and be the same when commands are decoded ahead. The corpus is seeded from the table tests; the
// fuzzed input is the stream's commands joined by newlines, then the
// capability object.
func FuzzCheck(f *testing.F) {
	for _, group := range [][]tc{seedCases()} {
		for _, c := range group {
			f.Add([]byte(joinCommands(c.cmds)), []byte(c.caps))
		}
	}
	c := New()
	f.Fuzz(func(t *testing.T, commands, caps []byte) {
		s := model.Stream{Version: model.Version{Major: "2"}}
		for _, line := range bytes.Split(commands, []byte("\n")) {
			if json.Valid(line) {
				s.Commands = append(s.Commands, json.RawMessage(line))
			}
		}
		if json.Valid(caps) {
			s.Capabilities = caps
		}
		fail := verdictOf(c, s)
		for _, cfg := range tinyAhead {
			if ahead := verdictOf(&Checker{ahead: cfg}, s); !reflect.DeepEqual(ahead, fail) {
				t.Fatalf("decoding ahead (%+v) gives %+v, serially %+v", cfg, ahead, fail)
			}
		}
		if fail == nil {
			return
		}
		if fail.Phase != model.PhaseSemantic && fail.Phase != model.PhaseCapability {
			t.Fatalf("unexpected phase %q", fail.Phase)
		}
		if fail.CommandIndex < -1 || fail.CommandIndex >= len(s.Commands) {
			t.Fatalf("command index %d out of [-1, %d)", fail.CommandIndex, len(s.Commands))
		}
		if fail.Code == "" || fail.Message == "" {
			t.Fatalf("failure without code or message: %+v", fail)
		}
	})
}

func joinCommands(cmds []string) string {
	var b bytes.Buffer
	for i, c := range cmds {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c)
	}
	return b.String()
}

// FuzzWireDecode holds the direct command reader to encoding/json: for any
// valid JSON, wire.decode gives exactly what json.Unmarshal gives, error
// or not.
func FuzzWireDecode(f *testing.F) {
	for _, c := range seedCases() {
		for _, cmd := range c.cmds {
			f.Add([]byte(cmd))
		}
	}
	f.Add([]byte(`{"cmd":"CreateBuffer","id":"5","usage":["A",null],"data":null,"size":null}`))
	f.Add([]byte(`{"cmd":"X","ID":1,"usage":[],"status":7}`))
	f.Add([]byte(`{"cmd":"HelloRenderer","client_name":"c","label":{"a":[1,"x"]},"id":3}`))
	f.Add([]byte(`{"cmd":"CreateBuffer","ſize":16,"Size":4,"usage":["COPY_DST"],"Extra":null}`))
	f.Add([]byte(`{"cmd":"Draw","vertex_count":3,"bytes_per_roK":1,"BYTES_PER_ROW":2}`))
	f.Add([]byte(`{"cmd":"CreateBuffer","usage":["A"],"usage":null,"data":"x","data":null}`))
	f.Add([]byte(`{"cmd":"CreateBindGroup","entries":[{"binding":0,"resource_id":3,"x":1,"has_dynamic_offset":true},{"Binding":1}],"entries":null}`))
	f.Add([]byte(`{"cmd":"CreateBindGroup","entries":[],"entries":[{"binding":0,"has_dynamic_offset":null,"has_dynamic_offset":false}]}`))
	f.Add([]byte(`{"cmd":"BeginRenderPass","color_attachments":[{"texture_id":1,"access":"x","load_op":"clear"}],"depth_stencil_attachment":{"texture_id":2},"depth_stencil_attachment":{"access":"y"}}`))
	f.Add([]byte(`{"cmd":"QueueSubmit","command_buffer_ids":[1,null,2],"readbacks":[{"buffer_id":1,"data":null,"data":"x"},null],"submission_id":"4"}`))
	f.Add([]byte(`{"cmd":"SetBindGroup","dynamic_offsets":[256],"dynamic_offsets":[1],"vertex_buffers":[null,{"a":1},2],"bind_group_layout_ids":null}`))
	f.Add([]byte(`{"cmd":"HelloRenderer","version":{"major":2,"minor":0,"MAJOR":3},"origin":{"x":1,"y":"2"},"mip_range":[1]}`))
	// One interner for every input, as a decoding goroutine has for every
	// command of a stream: its strings come from earlier commands too.
	in := newInterner()
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		var got, want wire
		gotErr := got.decode(raw, in)
		wantErr := json.Unmarshal(raw, &want)
		if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Fatalf("%s: decode error %v, json.Unmarshal %v", raw, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decode gives %+v, json.Unmarshal %+v", raw, got, want)
		}
	})
}
