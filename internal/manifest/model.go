package manifest

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// headline is the comparison in one line.
func headline(c *model.ManifestCheck) string {
	state := "not frozen"
	if c.Frozen {
		state = "frozen"
	}
	version := c.DRP2Version
	if version == "" {
		version = "?"
	}
	if c.Clean() {
		return fmt.Sprintf("the corpus matches its manifest (DRP2 %s, %s, %d fixtures)", version, state, c.Unchanged)
	}
	var parts []string
	for _, k := range []string{Added, Removed, Renamed, Changed} {
		if n := count(c, k); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	for _, s := range c.Schemas {
		parts = append(parts, schemaPart(s))
	}
	if c.CurrentVersion != "" {
		parts = append(parts, fmt.Sprintf("DRP2 version %s → %s", version, c.CurrentVersion))
	}
	line := fmt.Sprintf("%s since the manifest (DRP2 %s, %s)", strings.Join(parts, ", "), version, state)
	if c.Frozen {
		if c.Violations > 0 {
			line += fmt.Sprintf("; %d %s the freeze", c.Violations, plural(c.Violations, "breaks", "break"))
		} else {
			line += "; the freeze holds"
		}
	}
	return line
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// schemaFiles bounds the changed schema files a headline names.
const schemaFiles = 3

// schemaPart is a schema change in the headline: "command schema changed
// (commands/CreateBuffer.json)", or "... moved" when only its path did.
func schemaPart(s model.ManifestSchema) string {
	if s.RecordedPath != s.CurrentPath && !s.Violation && len(s.Files) == 0 &&
		(s.RecordedSHA256 == s.CurrentSHA256 || s.RecordedClosure != "" && s.RecordedClosure == s.CurrentClosure) {
		return s.Which + " schema moved"
	}
	part := s.Which + " schema changed"
	if len(s.Files) == 0 {
		return part
	}
	n := min(len(s.Files), schemaFiles)
	part += " (" + strings.Join(s.Files[:n], ", ")
	if len(s.Files) > n {
		part += fmt.Sprintf(" and %d more", len(s.Files)-n)
	}
	return part + ")"
}
