package level3

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// KeyParts are the parts of an implementation's hello a platform key may
// be made of, in the order of the hello.
var KeyParts = []string{"name", "version", "vendor", "architecture", "device", "driver", "platform"}

// DefaultKey is the platform key's parts unless told otherwise: the
// adapter's vendor and device, which tell one GPU (or software rasterizer)
// from another while a driver update keeps its references.
var DefaultKey = []string{"vendor", "device"}

// AnyKey is the least specific platform key, where every lookup ends.
const AnyKey = "any"

// ParseKey reads a list of key parts ("vendor,device"), most significant
// first.
func ParseKey(s string) ([]string, error) {
	var parts []string
	seen := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !slices.Contains(KeyParts, p) {
			return nil, fmt.Errorf("%q is not a part of a platform key (%s)", cut(p), strings.Join(KeyParts, ", "))
		}
		if seen[p] {
			return nil, fmt.Errorf("%q is named twice", p)
		}
		seen[p] = true
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%q names no part of a platform key (%s)", cut(s), strings.Join(KeyParts, ", "))
	}
	return parts, nil
}

// Slug is a part of a key as a path element: lowercase, every run of
// characters outside [a-z0-9.] one "-", trimmed of "-". A part of dots
// alone is empty, so that no part is ever "." or "..".
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := b.String()
	if strings.Trim(out, ".") == "" {
		return ""
	}
	// A path element this long says nothing a shorter one does not.
	const most = 64
	if len(out) > most {
		out = strings.TrimRight(out[:most], "-")
	}
	return out
}

// Backend is the backend an implementation's references are kept under:
// its hello's name, slugged ("unnamed" when it gave none).
func Backend(im *model.Implementation) string {
	if s := Slug(im.Name); s != "" {
		return s
	}
	return "unnamed"
}

// Keys are the platform keys of im under parts, most specific first: the
// slugged parts it gave, joined by "-", then fewer and fewer of them, then
// AnyKey.
func Keys(im *model.Implementation, parts []string) []string {
	var values []string
	for _, p := range parts {
		if v := Slug(part(im, p)); v != "" {
			values = append(values, v)
		}
	}
	var keys []string
	for n := len(values); n > 0; n-- {
		keys = append(keys, strings.Join(values[:n], "-"))
	}
	return append(keys, AnyKey)
}

// part is the hello's value of one key part.
func part(im *model.Implementation, p string) string {
	switch p {
	case "name":
		return im.Name
	case "version":
		return im.Version
	}
	a := im.Adapter
	if a == nil {
		return ""
	}
	switch p {
	case "vendor":
		return a.Vendor
	case "architecture":
		return a.Architecture
	case "device":
		return a.Device
	case "driver":
		return a.Driver
	case "platform":
		return a.Platform
	}
	return ""
}
