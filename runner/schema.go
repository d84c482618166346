package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// Embedded names the project's own schemas in Config and in reports.
const Embedded = "embedded"

// Upstream layout: where a DRP2 checkout keeps its schemas relative to the
// corpus root (fixtures/schema/... and schema/... beside fixtures/).
const (
	UpstreamFixtureSchema = "schema/drp_fixture.schema.json"
	UpstreamCommandSchema = "../schema/drp_command.json"
)

// Codes the command-schema phase reports. ERRORS.md lists no schema-specific
// code; the corpus expects INVALID_ARGUMENT for malformed command objects,
// and UNKNOWN_COMMAND is the most specific code for a cmd that names no
// active command.
const (
	codeSchemaInvalid  = "DRP2_ERR_INVALID_ARGUMENT"
	codeUnknownCommand = "DRP2_ERR_UNKNOWN_COMMAND"
)

// schemas holds the compiled schemas of a run and where they came from.
type schemas struct {
	*schema.Set
	commandSource model.SchemaSource
	fixtureSource model.SchemaSource
}

// Schemas are compiled schemas that several runs may share (Config.Schemas):
// compiling costs milliseconds, which a caller that runs the same corpus
// many times, such as a fuzz target, need not pay each time. It holds no
// state that a run changes.
type Schemas struct{ s *schemas }

// CompileSchemas resolves and compiles the schemas cfg names, as Run
// would: CommandSchema, FixtureSchema, and the upstream layout beside
// Corpus. The result serves any run whose configuration resolves to the
// same schemas.
func CompileSchemas(cfg Config) (*Schemas, error) {
	c, err := newCorpus(cfg)
	if err != nil {
		return nil, err
	}
	s, err := loadSchemas(cfg, c.workDir, c.dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	return &Schemas{s: s}, nil
}

// schemaFile is one schema document: where it came from, its bytes, and
// where the files its references name are read from.
type schemaFile struct {
	source string // path or Embedded
	doc    schema.Document
	tree   *workspace.Tree // the schema's folder on disk, closed after compiling
}

// MaxSchemaFile bounds one schema file, and each file a schema refers to.
const MaxSchemaFile = 16 << 20

// resolveSchema picks the schema for a flag value: the named file, the
// embedded copy, or with no flag the upstream layout when present. With a
// schema file system the flag value is a slash path inside it.
//
// A schema on disk is read through the workspace (no links below it,
// regular files, bounded, held inside it when contained), and its
// references only inside its own folder tree, through the same rules.
func resolveSchema(ws workspace.Dir, fsys fs.FS, flagValue, upstream string, embedded schema.Document) (schemaFile, error) {
	if fsys != nil && flagValue != "" && flagValue != Embedded {
		name := path.Clean(strings.TrimPrefix(filepath.ToSlash(flagValue), "/"))
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return schemaFile{}, fmt.Errorf("read schema: %w", err)
		}
		dir := path.Dir(name)
		sub, err := fs.Sub(fsys, dir)
		if err != nil {
			return schemaFile{}, fmt.Errorf("read schema: %w", err)
		}
		return schemaFile{source: flagValue, doc: schema.Document{URL: fsURL(name), Data: data, Load: schema.Folder(sub, "/"+dir)}}, nil
	}
	p := flagValue
	if p == "" && upstream != "" && ws.Kind(upstream) == workspace.File {
		// Only a regular file, inside the workspace when it is contained,
		// is taken for the upstream layout.
		p = upstream
	}
	if p == "" || p == Embedded {
		return schemaFile{source: Embedded, doc: embedded}, nil
	}
	abs := ws.Abs(p)
	tree, err := ws.Tree(filepath.Dir(abs), MaxSchemaFile)
	if err != nil {
		return schemaFile{}, fmt.Errorf("read schema %s: %w", p, err)
	}
	data, err := tree.ReadFile(filepath.Base(abs))
	if err != nil {
		tree.Close()
		return schemaFile{}, fmt.Errorf("read schema %s: %w", p, unwrapPath(err))
	}
	doc := schema.Document{URL: fileURL(abs), Data: data, Load: schema.Folder(tree, filepath.ToSlash(tree.Dir()))}
	return schemaFile{source: ws.Display(abs), doc: doc, tree: tree}, nil
}

// fsURL is the URL a schema read from Config.SchemaFS is known by: a file
// URL rooted at the file system's root, so that relative references
// resolve inside it and schema.Folder can turn them back into names.
func fsURL(name string) string {
	return (&url.URL{Scheme: "file", Path: "/" + name}).String()
}

func fileURL(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// describe says which schema f is: its source, the digest of its own
// bytes, and its closure, the files its compilation read (see
// model.SchemaSource), each named relative to f's folder so that the same
// files give the same closure on any machine.
func (f schemaFile) describe(read []schema.File) model.SchemaSource {
	s := model.SchemaSource{Source: f.source, SHA256: sum(f.doc.Data)}
	dir := urlDir(f.doc.URL)
	seen := map[string]bool{}
	for _, r := range read {
		p := strings.TrimPrefix(urlPath(r.URL), dir)
		if !seen[p] {
			seen[p] = true
			s.Files = append(s.Files, model.SchemaFile{Path: p, SHA256: sum(r.Data)})
		}
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	var lines strings.Builder
	for _, file := range s.Files {
		fmt.Fprintf(&lines, "%s  %s\n", file.SHA256, file.Path)
	}
	s.Closure = sum([]byte(lines.String()))
	return s
}

// urlPath is the path of a document's URL (the URL itself when it has
// none), and urlDir the folder of it, with a final slash.
func urlPath(u string) string {
	if parsed, err := url.Parse(u); err == nil && parsed.Path != "" {
		return parsed.Path
	}
	return u
}

func urlDir(u string) string { return strings.TrimSuffix(path.Dir(urlPath(u)), "/") + "/" }

// loadSchemas resolves and compiles both schemas for a corpus on disk
// (corpusDir empty for the embedded corpus).
func loadSchemas(cfg Config, workDir, corpusDir string) (*schemas, error) {
	ws := workspace.New(workDir, cfg.Contained)
	var upFixture, upCommand string
	if corpusDir != "" && cfg.SchemaFS == nil {
		upFixture = filepath.Join(corpusDir, filepath.FromSlash(UpstreamFixtureSchema))
		upCommand = filepath.Join(corpusDir, filepath.FromSlash(UpstreamCommandSchema))
	}
	cmdFile, err := resolveSchema(ws, cfg.SchemaFS, cfg.CommandSchema, upCommand, schema.EmbeddedCommand())
	if err != nil {
		return nil, err
	}
	defer cmdFile.close()
	fixFile, err := resolveSchema(ws, cfg.SchemaFS, cfg.FixtureSchema, upFixture, schema.EmbeddedFixture())
	if err != nil {
		return nil, err
	}
	defer fixFile.close()
	set, err := schema.Compile(cmdFile.doc, fixFile.doc)
	var e *schema.Error
	if errors.As(err, &e) {
		src := cmdFile.source
		if e.Schema == "fixture" {
			src = fixFile.source
		}
		return nil, fmt.Errorf("%s schema %s: %w", e.Schema, src, e.Err)
	}
	if err != nil {
		return nil, err
	}
	return &schemas{Set: set, commandSource: cmdFile.describe(set.CommandFiles), fixtureSource: fixFile.describe(set.FixtureFiles)}, nil
}

func (f schemaFile) close() {
	if f.tree != nil {
		f.tree.Close()
	}
}

// leafError picks the most specific cause of a validation error: the
// deepest instance location, and the first of those in schema order.
//
// The schema library checks an object's properties in map order, so the
// causes it reports for sibling properties come in an order that changes
// from run to run; canonical puts each such group in the order of the
// property names first, so that the verdict is the same on every run.
func leafError(err error) (pointer, message string) {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return "", err.Error()
	}
	var leaves []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range canonical(e) {
			walk(c)
		}
	}
	walk(ve)
	sort.SliceStable(leaves, func(i, j int) bool {
		return depth(leaves[i].InstanceLocation) > depth(leaves[j].InstanceLocation)
	})
	leaf := leaves[0]
	loc := leaf.InstanceLocation
	if loc == "" {
		return "", leaf.Message
	}
	return loc, fmt.Sprintf("%s: %s", loc, leaf.Message)
}

// canonical returns e's causes with each run of consecutive causes that
// one "properties" keyword produced sorted by property name. Every other
// cause keeps its place, and so the schema's order (oneOf branches, items).
func canonical(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	causes := append([]*jsonschema.ValidationError(nil), e.Causes...)
	for i := 0; i < len(causes); {
		group := propertiesKeyword(e, causes[i])
		if group == "" {
			i++
			continue
		}
		j := i + 1
		for j < len(causes) && propertiesKeyword(e, causes[j]) == group {
			j++
		}
		run := causes[i:j]
		sort.SliceStable(run, func(a, b int) bool { return run[a].InstanceLocation < run[b].InstanceLocation })
		i = j
	}
	return causes
}

// propertiesKeyword returns the keyword location of the "properties"
// keyword whose check of one member of e's value produced c, or "" when c
// came from anything else.
func propertiesKeyword(e, c *jsonschema.ValidationError) string {
	name, ok := strings.CutPrefix(c.InstanceLocation, e.InstanceLocation+"/")
	if !ok || strings.Contains(name, "/") {
		return ""
	}
	i := strings.LastIndex(c.KeywordLocation, "/properties/"+name)
	if i < 0 {
		return ""
	}
	return c.KeywordLocation[:i+len("/properties")]
}

func depth(pointer string) int { return strings.Count(pointer, "/") }
