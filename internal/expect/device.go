package expect

import (
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// DeviceGlob is the device glob of an entry written for the adapter a: the
// words that name the device (vendor, architecture, device) in their
// order, '*' around and between them, so that the entry follows the device
// through a driver update but does not excuse another device's failures.
// An adapter that gave only its driver is named by it; "" when a is nil
// or says nothing.
func DeviceGlob(a *model.GPUAdapter) string {
	if a == nil {
		return ""
	}
	var parts []string
	for _, p := range []string{a.Vendor, a.Architecture, a.Device} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		if d := strings.TrimSpace(a.Driver); d != "" {
			parts = append(parts, d)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "*" + strings.Join(parts, "*") + "*"
}

// entryField is an entry's first field for the implementation name on
// the devices device matches ("" for any): NAME or NAME@GLOB, each part
// quoted when it would not read back as itself. ok is false for a name no
// entry can hold (EntryName).
func entryField(name, device string) (text string, ok bool) {
	text, ok = EntryName(name)
	if !ok || device == "" {
		return text, ok
	}
	return text + "@" + quoteField(device), true
}

// quoteField is s as a part of a field: itself when it reads back as
// itself, else a Go string literal.
func quoteField(s string) string {
	if q, ok := EntryName(s); ok {
		return q
	}
	return s
}
