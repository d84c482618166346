package model

import (
	"errors"
	"strings"
)

// Requirement is an implementation that must report, and the device it
// must report from: "NAME" or "NAME@GLOB" (--require). A matrix whose job
// on a GPU fell back to a software adapter, or never uploaded its report,
// would otherwise only shrink the matrix.
type Requirement struct {
	// Name is the implementation's name, "name version" or command
	// (Implementation.Label and Command).
	Name string
	// Device is a Glob its adapter's description (GPUAdapter.Description)
	// must match; "" accepts any device, and none.
	Device string
}

// ParseRequirement reads "NAME" or "NAME@GLOB". The name ends at the last
// '@', since a command may hold one ("npx @scope/rt") and a device glob
// does not: "NAME@" requires NAME on any device.
func ParseRequirement(s string) (Requirement, error) {
	name, device := strings.TrimSpace(s), ""
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		name, device = strings.TrimSpace(name[:i]), strings.TrimSpace(name[i+1:])
	}
	if name == "" {
		return Requirement{}, errors.New("no implementation named before '@': want NAME or NAME@GLOB")
	}
	return Requirement{Name: name, Device: device}, nil
}

// String is the requirement as written: NAME, or NAME@GLOB.
func (r Requirement) String() string {
	if r.Device == "" {
		return r.Name
	}
	return r.Name + "@" + r.Device
}

// MetBy says whether im is the implementation required, on the device
// required.
func (r Requirement) MetBy(im *Implementation) bool {
	if r.Name != im.Name && r.Name != im.Label() && r.Name != im.Command {
		return false
	}
	return r.Device == "" || Glob(r.Device, im.Adapter.Description())
}

// Glob matches text against pattern, '*' matching any text (none
// included), case-insensitively; anything else matches itself.
func Glob(pattern, text string) bool {
	p, t := []rune(strings.ToLower(pattern)), []rune(strings.ToLower(text))
	// The classic two-pointer wildcard match: linear in practice, no
	// backtracking blow-up on hostile patterns.
	pi, ti, star, mark := 0, 0, -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case pi < len(p) && p[pi] == t[ti]:
			pi++
			ti++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
