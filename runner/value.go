package runner

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// decodeValue decodes JSON that json.Valid already accepted into the
// values encoding/json produces with UseNumber (map[string]any, []any,
// string, json.Number, bool, nil). It is a plain recursive parser because a
// json.Decoder per command costs more than the parse itself on long
// streams; FuzzDecodeValue holds it to encoding/json's result.
func decodeValue(raw []byte) any {
	p := valueParser{data: raw}
	return p.value()
}

type valueParser struct {
	data []byte
	pos  int
}

func (p *valueParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *valueParser) value() any {
	p.space()
	if p.pos >= len(p.data) {
		return nil
	}
	switch c := p.data[p.pos]; c {
	case '{':
		p.pos++
		m := map[string]any{}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return m
		}
		for p.pos < len(p.data) {
			p.space()
			k := p.str()
			p.space()
			p.pos++ // ':'
			m[k] = p.value()
			p.space()
			if p.pos >= len(p.data) {
				break
			}
			sep := p.data[p.pos]
			p.pos++
			if sep == '}' {
				break
			}
		}
		return m
	case '[':
		p.pos++
		a := []any{}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return a
		}
		for p.pos < len(p.data) {
			a = append(a, p.value())
			p.space()
			if p.pos >= len(p.data) {
				break
			}
			sep := p.data[p.pos]
			p.pos++
			if sep == ']' {
				break
			}
		}
		return a
	case '"':
		return p.str()
	case 't':
		p.pos += 4
		return true
	case 'f':
		p.pos += 5
		return false
	case 'n':
		p.pos += 4
		return nil
	default:
		start := p.pos
		for p.pos < len(p.data) && bytes.IndexByte([]byte("+-0123456789.eE"), p.data[p.pos]) >= 0 {
			p.pos++
		}
		return json.Number(p.data[start:p.pos])
	}
}

// str reads a string token; escapes and invalid UTF-8 are left to
// encoding/json.
func (p *valueParser) str() string {
	start := p.pos
	p.pos++
	escaped := false
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '\\':
			escaped = true
			p.pos += 2
			continue
		case '"':
			p.pos++
			tok := p.data[start:p.pos]
			if !escaped && utf8.Valid(tok) {
				return string(tok[1 : len(tok)-1])
			}
			var s string
			_ = json.Unmarshal(tok, &s)
			return s
		}
		p.pos++
	}
	return ""
}
