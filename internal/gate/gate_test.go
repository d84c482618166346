package gate

import "testing"

func TestParseFailOn(t *testing.T) {
	for in, want := range map[string]FailOn{
		"mismatch":                {Mismatch: true},
		"mismatch,empty":          {Mismatch: true, Empty: true},
		"empty\nfindings":         {Empty: true, Findings: true},
		" mismatch , findings ":   {Mismatch: true, Findings: true},
		"never":                   {},
		"mismatch,empty,findings": {Mismatch: true, Empty: true, Findings: true},
		"unexpected-pass,flaky":   {UnexpectedPass: true, Flaky: true},
	} {
		got, err := ParseFailOn(in)
		if err != nil || got != want {
			t.Errorf("ParseFailOn(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "always", "never,mismatch", "mismatch;empty"} {
		if _, err := ParseFailOn(bad); err == nil {
			t.Errorf("ParseFailOn(%q) accepted", bad)
		}
	}
	if s := (FailOn{Mismatch: true, Empty: true}).String(); s != "mismatch,empty" {
		t.Errorf("String() = %q", s)
	}
	if s := (FailOn{Mismatch: true, UnexpectedPass: true, Flaky: true}).String(); s != "mismatch,unexpected-pass,flaky" {
		t.Errorf("String() = %q", s)
	}
}
