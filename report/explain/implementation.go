package explain

import (
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Adapter names the device an implementation ran on in one line: vendor
// and architecture (or device), driver, platform; only what is known, ""
// for none.
func Adapter(a *model.Adapter) string {
	if a == nil {
		return ""
	}
	var parts []string
	name := strings.TrimSpace(a.Vendor + " " + a.Architecture)
	if name == "" {
		name = a.Device
	}
	for _, p := range []string{name, a.Driver} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	s := strings.Join(parts, ", ")
	if a.Platform != "" {
		if s == "" {
			return a.Platform
		}
		s += " (" + a.Platform + ")"
	}
	return s
}

// Unusable is what every report says of an implementation that could not
// be used at all (not started, no handshake): none of its fixtures ran, so
// it neither passed nor failed any.
const Unusable = "could not be used"

// ImplementationsVerdict sums up how n implementations did, failing of
// them failing fixtures and unusable of them not usable at all: "all 3
// implementations pass every fixture", "1 of 3 implementations fails
// fixtures; 1 could not be used".
func ImplementationsVerdict(n, failing, unusable int) string {
	if failing == 0 && unusable == 0 {
		if n == 1 {
			return "the 1 implementation passes every fixture"
		}
		return "all " + Count(n, "implementation", "implementations") + " pass every fixture"
	}
	of := func(k int) string { return strconv.Itoa(k) + " of " + Count(n, "implementation", "implementations") }
	var parts []string
	if failing > 0 {
		parts = append(parts, of(failing)+" "+Plural(failing, "fails", "fail")+" fixtures")
	}
	if unusable > 0 {
		if failing > 0 {
			parts = append(parts, strconv.Itoa(unusable)+" "+Unusable)
		} else {
			parts = append(parts, of(unusable)+" "+Unusable)
		}
	}
	return strings.Join(parts, "; ")
}
