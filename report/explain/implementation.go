package explain

import (
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
