package manifest

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Headline is the comparison in one line.
func (c *Comparison) Headline() string {
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
	for _, k := range []Kind{Added, Removed, Renamed, Changed} {
		if n := c.Count(k); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	if n := len(c.Schemas); n > 0 {
		parts = append(parts, fmt.Sprintf("%d schema%s changed", n, plural(n)))
	}
	if c.CurrentVersion != "" {
		parts = append(parts, fmt.Sprintf("DRP2 version %s → %s", version, c.CurrentVersion))
	}
	line := fmt.Sprintf("%s since the manifest (DRP2 %s, %s)", strings.Join(parts, ", "), version, state)
	if c.Frozen {
		if c.Violations > 0 {
			line += fmt.Sprintf("; %d break%s the freeze", c.Violations, pluralVerb(c.Violations))
		} else {
			line += "; the freeze holds"
		}
	}
	return line
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func pluralVerb(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// Model is the comparison as the model carries it to every report, with
// path the manifest as the reports show it.
func (c *Comparison) Model(path string) *model.ManifestCheck {
	m := &model.ManifestCheck{Path: path, Frozen: c.Frozen, DRP2Version: c.DRP2Version, CurrentVersion: c.CurrentVersion,
		Headline: c.Headline(), Unchanged: c.Unchanged, Violations: c.Violations}
	for _, s := range c.Schemas {
		m.SchemasChanged = append(m.SchemasChanged, s.Which)
		m.Schemas = append(m.Schemas, model.ManifestSchema{Which: s.Which,
			RecordedPath: s.Recorded.Path, RecordedSHA256: s.Recorded.SHA256,
			CurrentPath: s.Current.Path, CurrentSHA256: s.Current.SHA256, Violation: s.Violation})
	}
	for i := range c.Changes {
		ch := &c.Changes[i]
		mch := model.ManifestChange{Kind: string(ch.Kind), Path: ch.Path, From: ch.From, Expected: ch.Expected,
			Description: ch.describe(), Violation: ch.Violation}
		for _, a := range ch.Aspects {
			mch.Aspects = append(mch.Aspects, string(a))
		}
		m.Changes = append(m.Changes, mch)
	}
	return m
}

// short is the first 12 hex digits of a digest, enough to tell two apart
// in a report.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
