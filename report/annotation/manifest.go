package annotation

import (
	"fmt"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// ManifestWhere names the files a manifest's annotations point into.
type ManifestWhere struct {
	// Fixture turns a corpus-relative fixture path into a repository path.
	Fixture func(rel string) string
	// Manifest is the manifest's repository path.
	Manifest string
}

// ForManifest returns one failure annotation per violation of the freeze:
// on the fixture file where it changed (its expected block or commands),
// or on the manifest's entry for a removed fixture or a changed schema.
func ForManifest(c *model.ManifestCheck, where ManifestWhere) []Annotation {
	var out []Annotation
	add := func(path string, span *model.Span, title, msg string) {
		a := Annotation{Path: path, StartLine: 1, EndLine: 1, Level: LevelFailure,
			Title: escape.OneLine(title), Message: msg}
		if span != nil {
			a.StartLine, a.EndLine = span.Line, span.EndLine
			if span.Line == span.EndLine {
				a.StartColumn, a.EndColumn = span.Column, span.EndColumn
			}
		}
		out = append(out, a)
	}
	version := c.DRP2Version
	for _, s := range c.Schemas {
		if s.Violation {
			add(where.Manifest, s.Span, "Frozen DRP2 "+version+" schema changed",
				fmt.Sprintf("The %s schema changed (%s) while the manifest declares DRP2 %s frozen: a frozen version keeps its schema and fixtures together (VERSIONING.md). Put the change in a new version.",
					s.Which, schemaSums(s), version))
		}
	}
	for i := range c.Changes {
		ch := &c.Changes[i]
		if !ch.Violation {
			continue
		}
		path := where.Manifest
		if !ch.InManifest && where.Fixture != nil {
			path = where.Fixture(ch.Path)
		}
		add(path, ch.Span, "Frozen fixture "+ch.Kind+": "+ch.Path,
			fmt.Sprintf("%s %s: %s, but the manifest declares DRP2 %s frozen, so its existing fixtures keep their stream and expectation (VERSIONING.md: patch changes must not change semantics). Add a new fixture instead, or record the change in a new version's manifest.",
				ch.Path, ch.Kind, ch.Description, version))
	}
	return out
}

// schemaSums says how a schema changed: its closure's digests and the
// files that changed, or the digests of its own bytes when the manifest
// recorded no closure.
func schemaSums(s model.ManifestSchema) string {
	if s.RecordedClosure == "" || s.CurrentClosure == "" {
		return fmt.Sprintf("sha256 %s → %s", model.ShortSum(s.RecordedSHA256), model.ShortSum(s.CurrentSHA256))
	}
	out := fmt.Sprintf("closure sha256 %s → %s", model.ShortSum(s.RecordedClosure), model.ShortSum(s.CurrentClosure))
	if len(s.Files) > 0 {
		out += "; files: " + explain.SchemaFiles(s.Files, escape.OneLine)
	}
	return out
}
