package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
	"github.com/drp2/drp2-fixtures/model"
)

func TestCompactSumIgnoresWhiteSpaceOnly(t *testing.T) {
	a := []byte(`[{"cmd": "Draw", "name": "a b\"  c"}, 1]`)
	b := []byte("[\n  {\"cmd\":\"Draw\",\n   \"name\":\"a b\\\"  c\"},\t1\n]")
	if compactSum(a) != compactSum(b) {
		t.Error("re-indented JSON sums differently")
	}
	c := []byte(`[{"cmd": "Draw", "name": "a b\"   c"}, 1]`)
	if compactSum(a) == compactSum(c) {
		t.Error("white space inside a string was ignored")
	}
	var compacted = []byte(`[{"cmd":"Draw","name":"a b\"  c"},1]`)
	if compactSum(a) != sum(compacted) {
		t.Error("compactSum is not the sum of the compacted text")
	}
	if !json.Valid(compacted) {
		t.Fatal("test input")
	}
}

// compactSum is the sum of encoding/json's compacted text, for any valid
// JSON, long strings and escapes included.
func FuzzCompactSum(f *testing.F) {
	f.Add([]byte(`[{"cmd": "Draw", "name": "a b\"  c"}, 1]`))
	f.Add([]byte("{\"a\\\\\": [ \"\\\\\" , \"\\\" \" ] }"))
	f.Add([]byte(`"` + strings.Repeat("x ", 40000) + `"`))
	f.Add([]byte(`[` + strings.Repeat(`{"k": "v\n"} , `, 5000) + `0]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var compacted bytes.Buffer
		if json.Compact(&compacted, data) != nil {
			return
		}
		if compactSum(data) != sum(compacted.Bytes()) {
			t.Errorf("compactSum(%q) differs from the sum of %q", data, compacted.Bytes())
		}
	})
}

// A large fixture's digest, summed on another goroutine, is the digest
// summed in line: the same sums of every fixture of the project's corpus,
// and of a stream past the size at which the sums go aside.
func TestDigestAsideIsTheDigest(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var long strings.Builder
	long.WriteString(`{"name": "long", "commands": [{"cmd": "HelloRenderer"}`)
	for long.Len() < 2<<20 {
		long.WriteString(",\n  {\"cmd\": \"Draw\", \"vertex_count\": 3}")
	}
	long.WriteString("],\n \"expected\": {\"outcome\": \"success\"}}")
	inputs := [][]byte{[]byte(long.String())}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	defer func(n int) { asideBytes = n }(asideBytes)
	for i, data := range inputs {
		var mem fixtureMemory
		fx, cerr := decodeFixture(data, &mem)
		if cerr != nil {
			fx = nil
		}
		want := digest(data, fx)
		for _, threshold := range []int{0, len(data), len(data) + 1} {
			asideBytes = threshold
			var got model.Digest
			var sums digester
			sums.start(data, &got)
			sums.decoded(fx)
			sums.wait()
			if got != want {
				t.Errorf("input %d, aside from %d bytes: %+v, in line %+v", i, threshold, got, want)
			}
		}
		mem.free()
		// Decoding that panicked: the file's sum alone, and no goroutine
		// left waiting.
		asideBytes = 0
		var got model.Digest
		var sums digester
		sums.start(data, &got)
		sums.wait()
		if got != (model.Digest{File: want.File}) {
			t.Errorf("input %d, not decoded: %+v, want the file's sum %s", i, got, want.File)
		}
	}
}

// The commands indexed from the offsets the validating pass found are the
// commands ValuesN finds, slice for slice.
func TestCommandsIndexedFromTheCheck(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := jsonpos.Check(data, "commands", nil)
		for i, m := range c.Outline.Members {
			if m.Key != "commands" || c.Outline.Lengths[i] < 0 {
				continue
			}
			var mem fixtureMemory
			got, _, ok := indexCommands(data, m, c.Outline.Lengths[i], c.Elements, &mem)
			want, wok := jsonpos.ValuesN(data[m.Start:m.End], c.Outline.Lengths[i], nil)
			if !ok || !wok || len(got) != len(want) {
				t.Fatalf("%s: %d commands (%v), ValuesN %d (%v)", p, len(got), ok, len(want), wok)
			}
			for k := range want {
				if unsafe.SliceData(got[k]) != unsafe.SliceData(want[k]) || len(got[k]) != len(want[k]) || cap(got[k]) != cap(want[k]) {
					t.Fatalf("%s: command %d is %q, ValuesN's %q", p, k, got[k], want[k])
				}
			}
			mem.free()
		}
	}
}

// TestTightCommandsSummedJoined: when no command holds white space between
// its tokens, the commands' sum is made from the commands joined, and is
// the sum of the member compacted, whatever the white space between the
// commands, their number and their size.
func TestTightCommandsSummedJoined(t *testing.T) {
	big := `{"cmd":"WriteBuffer","data":"` + strings.Repeat("QUFB", 20000) + `"}`
	cases := []struct {
		commands string
		tight    bool
	}{
		{`[]`, true},
		{`[ ]`, true},
		{`[{"cmd":"x"}]`, true},
		{"[\n  {\"cmd\":\"x\",\"id\":1},\n  {\"cmd\":\"y\",\"s\":\"a b\"} ,2,\"s\",[1,[2]]\n]", true},
		{`[{"cmd":"x"},` + big + `,{"cmd":"y"}]`, true},
		{`[` + big + `]`, true},
		{`[{"cmd": "x"}]`, false},
		{`[{"cmd":"x"},[1, 2]]`, false},
		{`[{"cmd":"x" }]`, false},
	}
	for _, c := range cases {
		data := []byte(`{"name": "t", "commands": ` + c.commands + `, "expected": {"outcome": "success"}}`)
		var mem fixtureMemory
		fx, cerr := decodeFixture(data, &mem)
		if cerr != nil {
			t.Fatalf("%.80s: %s", c.commands, cerr.msg)
		}
		raw, _ := fx.member("commands")
		if fx.tight != c.tight {
			t.Errorf("%.80s: tight = %v, want %v", c.commands, fx.tight, c.tight)
		}
		if got, want := memberSums(data, fx).Commands, compactSum(raw); got != want {
			t.Errorf("%.80s: commands sum %s, compacted %s", c.commands, got, want)
		}
		if got, want := joinedSum(fx.commands), compactSum(raw); c.tight && got != want {
			t.Errorf("%.80s: joined sum %s, compacted %s", c.commands, got, want)
		}
		mem.free()
	}
}
