package jsonpos

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// standardValid is what Valid stands in for.
func standardValid(data []byte) bool { return utf8.Valid(data) && json.Valid(data) }

// validCases are texts on each side of every rule Valid checks.
var validCases = []string{
	``, ` `, `{}`, `[]`, ` {} `, "\t[\r\n]\n", `{`, `}`, `[`, `]`, `{]`, `[}`, `{}}`, `[]]`, `{}{}`, `[][]`, `{} x`,
	`{"a":1}`, `{"a" : 1 , "b" : [ 1 , 2 ] }`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{1:2}`, `{"a":1 "b":2}`,
	`[1 2]`, `{"a":{"b":{"c":[[]]}}}`, `{"a":[{}]}`, `{"a":[{"b":[]},{}]}`, `[{"a":1}]`, `[[[[]]],[]]`,
	`0`, `-0`, `-`, `01`, `-01`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1e5`, `1E-5`, `1.5e+10`, `-1.0e0`, `1ee5`, `1.5.5`, `+1`, `0x10`, `1e5.5`,
	`true`, `false`, `null`, `tru`, `nul`, `falsey`, `True`, `nulll`, `[true,false,null]`,
	`""`, `"a"`, `"`, `"\"`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\u00e9"`, `"\u00E9"`, `"\u00g9"`, `"\u00e"`, `"\x"`, `"\'"`, `"\ud800"`,
	"\"\x00\"", "\"\x1f\"", "\"\x7f\"", "\"é\"", "\"\xe9\"", "\"\xed\xa0\x80\"", "\"\xef\xbf\xbd\"", "\"\xf4\x90\x80\x80\"", "\"\xc0\xaf\"",
	"\"\xe2\x82\"", "{\"\xff\":1}", "\xef\xbb\xbf{}", "{}\x00", "[1,\xa0]", "\"a\nb\"", "\u00a0{}",
}

func TestValidAgreesWithTheStandardLibrary(t *testing.T) {
	for _, c := range validCases {
		if got, want := Valid([]byte(c)), standardValid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, utf8.Valid && json.Valid say %v", c, got, want)
		}
	}
}

// The standard scanner refuses the 10,001st open container; so must Valid,
// or a document it rejects would be judged further.
func TestValidNestingLimit(t *testing.T) {
	for _, open := range []string{"[", `{"a":`} {
		for _, depth := range []int{maxNesting - 1, maxNesting, maxNesting + 1} {
			closing := "]"
			if open != "[" {
				closing = "}"
			}
			doc := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(closing, depth))
			if got, want := Valid(doc), standardValid(doc); got != want {
				t.Errorf("%q nested %d deep: Valid %v, the standard library %v", open, depth, got, want)
			}
		}
	}
}

// FuzzValid: Valid is utf8.Valid && json.Valid on any input.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), standardValid(data); got != want {
			t.Fatalf("Valid(%q) = %v, utf8.Valid && json.Valid say %v", data, got, want)
		}
	})
}

func BenchmarkValid(b *testing.B) {
	data := benchStream(20000)
	b.SetBytes(int64(len(data)))
	b.Run("Valid", func(b *testing.B) {
		for b.Loop() {
			Valid(data)
		}
	})
	b.Run("standard", func(b *testing.B) {
		for b.Loop() {
			standardValid(data)
		}
	})
}

// benchStream is a fixture of n small commands, the shape of a long stream.
func benchStream(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"name": "long", "version": {"major": 2, "minor": 0}, "commands": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n    ")
		}
		b.WriteString(`{"cmd": "WriteBuffer", "buffer": 17, "offset": 4096, "data": "AAECAwQFBgc=", "label": "vertex data é"}`)
	}
	b.WriteString("], \"expected\": {\"outcome\": \"success\"}}\n")
	return []byte(b.String())
}
