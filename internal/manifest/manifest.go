// Package manifest is the frozen record of a fixture corpus: which fixtures
// it holds, what each expects, digests of their commands and files, and the
// schemas they were written against. Comparing a corpus with its manifest
// shows what a change added, removed, renamed or changed; a manifest that
// declares its version frozen turns changes to existing fixtures into
// violations (VERSIONING.md, Producer and Runtime Rules, rule 6, and the
// Compatibility rule that patch changes keep semantics).
//
// The manifest is JSON with sorted keys and a format version, and the same
// corpus gives the same bytes on any machine: paths are corpus-relative,
// schema paths are relative to the corpus root, and nothing depends on the
// clock or on map order.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
	"github.com/drp2/drp2-fixtures/internal/jsontree"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Format is the version of the manifest format this package writes. A
// reader refuses a newer format instead of misreading it. Format 2 added
// each schema's closure (Schema.Closure, Schema.Files); a format 1
// manifest is still read, its schemas compared by their own bytes.
const Format = 2

// oldestFormat is the oldest format this package reads.
const oldestFormat = 1

// Embedded is the schema path recorded for a schema built into the tool.
const Embedded = "embedded"

// Manifest is a corpus as recorded. The fields are declared in the order
// of their JSON keys, so the encoded objects have sorted keys.
type Manifest struct {
	// DRP2Version is the protocol version every fixture declares
	// ("2.0", or "2.0.1" with a patch).
	DRP2Version string    `json:"drp2_version"`
	Fixtures    []Fixture `json:"fixtures"`
	Format      int       `json:"format"`
	// Frozen declares the version frozen: existing fixtures may no longer
	// change their expectation or stream, nor disappear.
	Frozen  bool    `json:"frozen"`
	Schemas Schemas `json:"schemas"`

	// schemaSpans locate the schema entries of a manifest read from a
	// file, by "command" and "fixture".
	schemaSpans map[string]*model.Span
}

// Schemas are the schemas a corpus was recorded with.
type Schemas struct {
	Command Schema `json:"command"`
	Fixture Schema `json:"fixture"`
}

// Schema is one schema: its closure (model.SchemaSource), its path
// relative to the corpus root (or Embedded) and the SHA-256 of its bytes.
type Schema struct {
	Closure string       `json:"closure_sha256,omitempty"`
	Files   []SchemaFile `json:"files,omitempty"`
	Path    string       `json:"path"`
	SHA256  string       `json:"sha256"`
}

// SchemaFile is one file of a schema's closure, by its path relative to
// the schema's folder.
type SchemaFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// source is the record as the model describes a schema, so that a
// manifest and a run compare schemas by one rule (model.SchemaChange):
// by closure when both recorded one (a format 1 manifest has none), else
// by the schema file's own bytes.
func (s Schema) source() model.SchemaSource {
	src := model.SchemaSource{Source: s.Path, SHA256: s.SHA256, Closure: s.Closure}
	for _, f := range s.Files {
		src.Files = append(src.Files, model.SchemaFile(f))
	}
	return src
}

// Fixture is one fixture as recorded.
type Fixture struct {
	Class string `json:"class"`
	// Expected is the fixture's expected block itself, so that a change
	// of expectation reads plainly in a diff of the manifest.
	Expected any    `json:"expected,omitempty"`
	Name     string `json:"name"`
	// Path is the corpus-relative slash path ("negative/x.json").
	Path   string `json:"path"`
	SHA256 Sums   `json:"sha256"`
	// Version is the protocol version the fixture declares.
	Version string `json:"version,omitempty"`

	// span locates the fixture's entry in the manifest file it was read
	// from, or its expected block in the corpus file it was built from;
	// annotations point there.
	span *model.Span
	// commandsSpan locates the commands of a fixture built from a corpus.
	commandsSpan *model.Span
	// unusable is set for a fixture that is a corpus error.
	unusable string
}

// Sums are SHA-256 digests (lower-case hex) of a fixture file and of its
// members; an absent member has no sum. The file, commands and expected
// sums are the runner's model.Digest (members without white space between
// tokens); the capabilities sum is of its raw bytes.
type Sums struct {
	Capabilities string `json:"capabilities,omitempty"`
	Commands     string `json:"commands,omitempty"`
	Expected     string `json:"expected,omitempty"`
	File         string `json:"file"`
}

// Source says where a run's corpus and schemas lie, so that the schema
// paths can be recorded relative to the corpus root.
type Source struct {
	// FS is the corpus the run read (a directory or the embedded corpus).
	FS fs.FS
	// CorpusDir is the absolute corpus directory, empty for the embedded
	// corpus.
	CorpusDir string
	// WorkDir is the directory the run's schema paths are relative to.
	WorkDir string
}

// Build records the corpus of a run. The run must cover the whole corpus
// (no PATH, name or tag filter); the fixture files are read again from
// src.FS for their expected blocks, and a file that changed since the run
// is an error.
//
// Fixtures that are corpus errors are recorded with what is known of them
// and returned in unusable, so that a caller can refuse to write a
// manifest that freezes a broken file, while a check still compares them.
func Build(run *model.Run, src Source) (m *Manifest, unusable []string, err error) {
	if run.Summary.Run != run.Summary.Discovered {
		return nil, nil, fmt.Errorf("the run covers %d of %d fixtures: a manifest records the whole corpus, so run it without PATH, --name or --tag filters",
			run.Summary.Run, run.Summary.Discovered)
	}
	m = &Manifest{Format: Format, Fixtures: make([]Fixture, 0, len(run.Results))}
	m.Schemas.Command = schemaOf(run.CommandSchema, src)
	m.Schemas.Fixture = schemaOf(run.FixtureSchema, src)
	versions := map[string][]string{}
	for i := range run.Results {
		r := &run.Results[i]
		f := Fixture{Path: r.RelPath, Name: r.Name, Class: r.Class.String(),
			SHA256: Sums{File: r.Digest.File, Commands: r.Digest.Commands, Expected: r.Digest.Expected}}
		if r.IsCorpusError() {
			f.unusable = r.Actual.Message
			unusable = append(unusable, fmt.Sprintf("%s: %s", r.Path, r.Actual.Message))
			m.Fixtures = append(m.Fixtures, f)
			continue
		}
		data, err := fs.ReadFile(src.FS, r.RelPath)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", r.Path, err)
		}
		if sum(data) != r.Digest.File {
			return nil, nil, fmt.Errorf("%s changed while the corpus was read: run again", r.Path)
		}
		if err := f.read(data); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r.Path, err)
		}
		versions[f.Version] = append(versions[f.Version], r.RelPath)
		m.Fixtures = append(m.Fixtures, f)
	}
	sort.Slice(m.Fixtures, func(i, j int) bool { return m.Fixtures[i].Path < m.Fixtures[j].Path })
	m.DRP2Version, err = oneVersion(versions)
	if err != nil {
		unusable = append(unusable, err.Error())
	}
	return m, unusable, nil
}

// read fills in what the run does not carry: the expected block, the
// capabilities digest, the declared version, and where the expected block
// and commands lie in the file.
func (f *Fixture) read(data []byte) error {
	// One pass finds every top-level member; the file decoded in the run,
	// so it is one JSON object.
	members, ok := jsonpos.Members(data)
	if !ok {
		return fmt.Errorf("the top-level object could not be read")
	}
	at := map[string][2]int{}
	for _, m := range members {
		at[m.Key] = [2]int{m.Start, m.End}
	}
	if r, ok := at["expected"]; ok {
		// Numbers are kept as written, so that the expected block is
		// re-encoded without losing precision.
		v, err := jsontree.DecodeTree(data[r[0]:r[1]])
		if err != nil {
			return fmt.Errorf("expected block: %w", err)
		}
		f.Expected = v
		s := model.Span(jsonpos.Span(data, r[0], r[1]))
		f.span = &s
	}
	if r, ok := at["commands"]; ok {
		s := model.Span(jsonpos.Span(data, r[0], r[1]))
		f.commandsSpan = &s
	}
	if r, ok := at["capabilities"]; ok {
		f.SHA256.Capabilities = sum(data[r[0]:r[1]])
	}
	if r, ok := at["version"]; ok {
		var v struct {
			Major, Minor json.Number
			Patch        *json.Number
		}
		dec := json.NewDecoder(bytes.NewReader(data[r[0]:r[1]]))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("version: %w", err)
		}
		f.Version = v.Major.String() + "." + v.Minor.String()
		if v.Patch != nil {
			f.Version += "." + v.Patch.String()
		}
	}
	return nil
}

// oneVersion returns the version all fixtures declare. A manifest records
// one version's corpus: VERSIONING.md freezes a version's schema and
// fixtures together.
func oneVersion(versions map[string][]string) (string, error) {
	if len(versions) <= 1 {
		for v := range versions {
			return v, nil
		}
		return "", nil
	}
	keys := make([]string, 0, len(versions))
	for v := range versions {
		keys = append(keys, v)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, v := range keys {
		parts[i] = fmt.Sprintf("%s (%d fixtures, first %s)", v, len(versions[v]), versions[v][0])
	}
	return "", fmt.Errorf("the fixtures declare different DRP2 versions: %s; a manifest records one version's corpus", strings.Join(parts, ", "))
}

// schemaOf records a run's schema with a path relative to the corpus root,
// which is the same on every machine that has the same layout.
func schemaOf(s model.SchemaSource, src Source) Schema {
	rec := Schema{Path: s.Source, SHA256: s.SHA256, Closure: s.Closure}
	for _, f := range s.Files {
		rec.Files = append(rec.Files, SchemaFile(f))
	}
	if s.Source == Embedded || s.Source == "" || src.CorpusDir == "" {
		if rec.Path == "" {
			rec.Path = Embedded
		}
		return rec
	}
	abs := filepath.FromSlash(s.Source)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(src.WorkDir, abs)
	}
	rel, err := filepath.Rel(src.CorpusDir, abs)
	if err != nil {
		// Another volume: only the file name is the same everywhere.
		rel = filepath.Base(abs)
	}
	rec.Path = filepath.ToSlash(rel)
	return rec
}

// canonical is a value's encoding with sorted keys and no spaces: two
// expected blocks are the same when their canonical forms are.
func canonical(v any) string {
	if v == nil {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Encode writes the manifest: two-space indentation, sorted keys, no HTML
// escaping (the manifest is read by people in diffs), a final newline.
func Encode(w io.Writer, m *Manifest) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	// A manifest printed to an Actions log ("manifest write -o -") must not
	// carry "##["; the file is written the same way, so the two are one
	// document.
	_, err := w.Write(escape.LogJSON(b.Bytes()))
	return err
}

// ErrFormat marks a manifest this tool cannot read.
var ErrFormat = errors.New("unreadable manifest")

// Decode reads a manifest. It refuses unknown members and other format
// versions, naming the line and column of a syntax error, and remembers
// where each fixture's entry lies so that violations can point at it.
func Decode(data []byte) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var head struct {
		Format json.Number `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrFormat, syntax(data, err))
	}
	if n, err := strconv.Atoi(head.Format.String()); err != nil || n < oldestFormat || n > Format {
		return nil, fmt.Errorf("%w: format %q, this tool reads formats %d to %d", ErrFormat, head.Format.String(), oldestFormat, Format)
	}
	m := &Manifest{}
	if err := dec.Decode(m); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrFormat, syntax(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the manifest object", ErrFormat)
	}
	m.schemaSpans = map[string]*model.Span{}
	for _, which := range []string{"command", "fixture"} {
		if start, end, ok := jsonpos.Find(data, "/schemas/"+which); ok {
			s := model.Span(jsonpos.Span(data, start, end))
			m.schemaSpans[which] = &s
		}
	}
	seen := map[string]bool{}
	for i := range m.Fixtures {
		f := &m.Fixtures[i]
		if f.Path == "" {
			return nil, fmt.Errorf("%w: fixture %d has no path", ErrFormat, i)
		}
		if seen[f.Path] {
			return nil, fmt.Errorf("%w: fixture %s is listed twice", ErrFormat, f.Path)
		}
		seen[f.Path] = true
	}
	entrySpans(data, m.Fixtures)
	return m, nil
}

// entrySpans records where each fixture's entry lies, in one pass over the
// fixtures array: finding each entry by its pointer from the start of the
// file, and counting its line from there, made reading a manifest of n
// fixtures cost n² (a minute at 8,000 fixtures).
func entrySpans(data []byte, fixtures []Fixture) {
	start, end, ok := jsonpos.Find(data, "/fixtures")
	if !ok {
		return
	}
	entries, ok := jsonpos.Values(data[start:end], nil)
	if !ok || len(entries) != len(fixtures) {
		return
	}
	lines := lineCounter{data: data}
	pos := start + 1 // past [
	for i, e := range entries {
		// Entries follow one another, apart only by white space and commas.
		for pos < end && data[pos] != e[0] {
			pos++
		}
		from, to := pos, pos+len(e)
		line, col := lines.at(from)
		endLine, endCol := lines.at(max(to-1, from))
		fixtures[i].span = &model.Span{Line: line, Column: col, EndLine: endLine, EndColumn: endCol}
		pos = to
	}
}

// lineCounter turns increasing byte offsets into the 1-based lines and
// columns jsonpos.LineColumn gives, reading each byte once in all.
type lineCounter struct {
	data      []byte
	off       int // the offset counted up to
	line      int // the line of off, less one
	lineStart int // the offset where that line starts
}

func (c *lineCounter) at(off int) (line, column int) {
	off = min(max(off, c.off), len(c.data))
	for i := c.off; i < off; i++ {
		if c.data[i] == '\n' {
			c.line++
			c.lineStart = i + 1
		}
	}
	c.off = off
	return c.line + 1, utf8.RuneCount(c.data[c.lineStart:off]) + 1
}

// syntax says where a decoding error lies.
func syntax(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := -1
	switch {
	case errors.As(err, &se):
		off = int(se.Offset)
	case errors.As(err, &te):
		off = int(te.Offset)
	}
	if off < 0 || off > len(data) {
		return err.Error()
	}
	line, col := jsonpos.LineColumn(data, off)
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}
