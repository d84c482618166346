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
	if n := len(c.Schemas); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s changed", n, plural(n, "schema", "schemas")))
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
