package drp2

import "testing"

// TestDecodeFastSkipsUnknownKeys holds decodeFast to reading commands with
// members the validator has no field for (a handshake's client_name, a
// shader's code) directly, and to handing json.Unmarshal every key it could
// match to a field without regard to case. FuzzWireDecode checks that both
// paths give what json.Unmarshal gives.
func TestDecodeFastSkipsUnknownKeys(t *testing.T) {
	for _, c := range []struct {
		raw  string
		fast bool
	}{
		{`{"cmd":"HelloRenderer","version":null,"client_name":"c"}`, true},
		{`{"cmd":"CreateShaderModule","id":1,"code":"@vertex fn main() {}","label":{"a":[1,"x"]}}`, true},
		{`{"cmd":"CreateBuffer","id":1,"an_unknown_member_whose_name_is_longer_than_any_field_of_wire_is":0}`, true},
		{`{"cmd":"CreateBuffer","ID":1}`, false},                  // matches id without regard to case
		{`{"cmd":"CreateBuffer","ſize":16}`, false},               // encoding/json folds ſ into s
		{`{"cmd":"CreateBuffer","id":1,"x":[1,}`, false},          // not JSON
		{`{"cmd":"CreateBuffer","id":1,"l\u0061bel":"x"}`, false}, // an escaped key
	} {
		var w wire
		if got := w.decodeFast([]byte(c.raw)); got != c.fast {
			t.Errorf("decodeFast(%s) = %v, want %v", c.raw, got, c.fast)
		}
	}
}
