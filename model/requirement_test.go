package model

import (
	"strings"
	"testing"
)

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		want          bool
	}{
		{"*", "", true},
		{"*swiftshader*", "Google SwiftShader Device (Subzero)", true},
		{"*SWIFTSHADER*", "google swiftshader", true},
		{"nvidia*", "Google SwiftShader", false},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbYcd", false},
		{"", "", true},
		{"", "x", false},
		{"a?c", "abc", false}, // '?' is itself
		{strings.Repeat("*a", 50) + "b", strings.Repeat("a", 5000), false},
	} {
		if got := Glob(c.pattern, c.text); got != c.want {
			t.Errorf("Glob(%q, %.20q) = %v", c.pattern, c.text, got)
		}
	}
}

// TestRequirement: the name ends at the last '@'; a requirement is met by
// the name, label or command on a device its glob matches.
func TestRequirement(t *testing.T) {
	swift := &Implementation{Command: "npx @scope/rt", Name: "rt", Version: "1.0",
		Adapter: &GPUAdapter{Vendor: "Google", Device: "SwiftShader Device (Subzero)"}}
	bare := &Implementation{Command: "./rt", Name: "rt", Version: "1.0"}
	for _, c := range []struct {
		spec, want  string
		swift, bare bool
	}{
		{"rt", "rt", true, true},
		{"rt 1.0", "rt 1.0", true, true},
		{"rt 2.0", "rt 2.0", false, false},
		{"rt@*swiftshader*", "rt@*swiftshader*", true, false},
		{"rt@*NVIDIA*", "rt@*NVIDIA*", false, false},
		{" rt @ * ", "rt@*", true, true},
		{"npx @scope/rt@", "npx @scope/rt", true, false},
		{"npx @scope/rt@google*", "npx @scope/rt@google*", true, false},
		{"other", "other", false, false},
	} {
		r, err := ParseRequirement(c.spec)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		if r.String() != c.want || r.MetBy(swift) != c.swift || r.MetBy(bare) != c.bare {
			t.Errorf("%q: %q, met by swiftshader %v, by no adapter %v; want %q, %v, %v", c.spec, r, r.MetBy(swift), r.MetBy(bare), c.want, c.swift, c.bare)
		}
	}
	for _, bad := range []string{"", "@*nvidia*", "  @x"} {
		if _, err := ParseRequirement(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
