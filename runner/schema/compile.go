package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Document is one schema document: the URL the compiler knows it by, its
// bytes, and where the documents its references name are read from.
type Document struct {
	URL  string
	Data []byte
	// Load reads a document a reference names; nil refuses every
	// reference outside the document (the embedded schemas need none).
	Load Loader
}

// EmbeddedCommand and EmbeddedFixture are the project's own schemas.
func EmbeddedCommand() Document { return Document{URL: CommandID, Data: Command} }

// EmbeddedFixture is the project's own fixture-envelope schema.
func EmbeddedFixture() Document { return Document{URL: FixtureID, Data: Fixture} }

// upstreamCommandFile is the file name of the command schema in the DRP2
// layout; the upstream fixture schema refers to it.
const upstreamCommandFile = "drp_command.json"

// Set is a compiled pair of schemas, as the runner uses them. The runner
// and the tests compile through Compile alone, so that the tests check what
// production runs.
type Set struct {
	// CommandFiles and FixtureFiles are every document each compilation
	// read, its root first: a schema is all of them, and a change to any
	// of them changes what it accepts.
	CommandFiles []File
	FixtureFiles []File

	// first is the first compiled copy, which NumberBounds inspects;
	// pool lends it and the copies compiled after it to validations.
	first *evaluator
	pool  *pool
}

// File is one document a compilation read: its URL and its bytes.
type File struct {
	URL  string
	Data []byte
}

// record adds a document to files once, by URL.
func record(files *[]File, u string, data []byte) {
	for _, f := range *files {
		if f.URL == u {
			return
		}
	}
	*files = append(*files, File{URL: u, Data: data})
}

// Compile compiles a command schema and a fixture schema.
//
// The command schema's root is expected to be a oneOf of $ref branches,
// each fixing properties.cmd.const: each such branch is compiled on its own
// too, so that a command is checked against the branch its cmd names and a
// message names the real problem instead of "oneOf failed".
//
// The envelope phase checks the envelope only: a reference from the fixture
// schema into the command schema (the upstream fixture schema has one) is
// replaced by an accept-all schema, because commands are the command-schema
// phase's business and a bad command must not be reported as a
// corpus-authoring error.
//
// References are read by each document's Load alone (see Folder), within
// a budget of documents and bytes for the whole compilation: a schema
// never makes the runner reach the network, read outside its own folder or
// compile without end.
//
// The embedded pair (EmbeddedCommand and EmbeddedFixture, which refer to
// no other document) is compiled once a process and its Set shared: a Set
// is only read once Compile has returned, and every run, validator and
// test of the embedded schemas would otherwise compile them again.
func Compile(command, fixture Document) (*Set, error) {
	if isEmbedded(command, EmbeddedCommand()) && isEmbedded(fixture, EmbeddedFixture()) {
		embedded.once.Do(func() { embedded.set, embedded.err = compile(command, fixture) })
		return embedded.set, embedded.err
	}
	return compile(command, fixture)
}

var embedded struct {
	once sync.Once
	set  *Set
	err  error
}

// isEmbedded reports whether d is the embedded document e: the same URL
// and bytes, and no loader for references.
func isEmbedded(d, e Document) bool {
	return d.Load == nil && d.URL == e.URL && bytes.Equal(d.Data, e.Data)
}

func compile(command, fixture Document) (*Set, error) {
	s := &Set{}
	b := newBudget()
	start := time.Now()
	e, err := build(command, fixture, b, &s.CommandFiles, &s.FixtureFiles)
	if err != nil {
		return nil, err
	}
	s.first = e
	s.pool = newPool(e, runtime.GOMAXPROCS(0), time.Since(start), s.again)
	return s, nil
}

// build compiles one evaluator: the command schema, its branches and the
// envelope schema, with a meter of their own. The documents each read are
// recorded in commandFiles and fixtureFiles.
func build(command, fixture Document, b *budget, commandFiles, fixtureFiles *[]File) (*evaluator, error) {
	e := &evaluator{meter: &meter{}}
	if err := e.compileCommand(command, b, commandFiles); err != nil {
		return nil, &Error{Schema: "command", Err: err}
	}
	if err := e.compileEnvelope(fixture, command, b, fixtureFiles); err != nil {
		return nil, &Error{Schema: "fixture", Err: err}
	}
	return e, nil
}

// again compiles another copy of s from the documents the first
// compilation read, so that it reads nothing twice and compiles the same
// bytes.
func (s *Set) again() (*evaluator, error) {
	read := func(files []File) Document {
		byURL := map[string][]byte{}
		for _, f := range files {
			byURL[f.URL] = f.Data
		}
		load := func(u string) (io.ReadCloser, error) {
			data, ok := byURL[u]
			if !ok {
				return nil, fmt.Errorf("cannot load %s: the first compilation did not read it", u)
			}
			return io.NopCloser(bytes.NewReader(data)), nil
		}
		return Document{URL: files[0].URL, Data: files[0].Data, Load: load}
	}
	var commandFiles, fixtureFiles []File
	b := newBudget()
	return build(read(s.CommandFiles), read(s.FixtureFiles), b, &commandFiles, &fixtureFiles)
}

// Loader reads a schema document that a reference names, by its URL.
type Loader func(url string) (io.ReadCloser, error)

// Bounds of one compilation, references included: far above the upstream
// schemas (about 60 documents, 200 KB), far below what would hurt a runner.
//
// The schema library's compilation work grows with the square of the
// schema objects of a document (it scans them all for each one it
// compiles, and the chain of references that led to it for each
// reference), so a megabyte of references in a chain, or of empty
// objects, compiles for minutes. MaxObjects bounds the objects and
// boolean schemas of all the documents a compilation reads (the upstream
// schemas use 1,400, counting a file again where two compilations read
// it): at the bound a compilation takes about two seconds. A regular
// expression compiles to a program whose size its text does not bound
// (a{1000}{1000} is a million instructions, seconds and hundreds of
// megabytes to compile), so MaxPatternSize bounds the instructions of all
// its patterns, and the library's exact arithmetic makes a number of a
// million digits, or of a huge exponent, cost seconds at each use, so
// MaxNumber bounds the characters and the exponent of each number. The
// counts are made on the documents before the library sees them.
const (
	MaxDocuments   = 1000
	MaxBytes       = 64 << 20
	MaxObjects     = 4000
	MaxPatternSize = 100_000
	MaxNumber      = 4096
)

// budget counts what the loaders of one compilation read.
type budget struct {
	documents int
	bytes     int64
	objects   int
	patterns  int64
}

func newBudget() *budget {
	return &budget{documents: MaxDocuments, bytes: MaxBytes, objects: MaxObjects, patterns: MaxPatternSize}
}

// count spends the objects and the patterns of the document u on the
// budget, refusing it when they exceed what is left or it holds a number
// beyond MaxNumber, or when it is a Git LFS pointer. A document that is not JSON is the library's to refuse.
func (b *budget) count(u string, data []byte) error {
	if IsLFSPointer(data) {
		return fmt.Errorf("cannot compile %s: the file is a Git LFS pointer, not the schema: %s", u, LFSFetch)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return nil
	}
	w := countWalk{}
	w.value(doc)
	b.objects -= w.objects
	b.patterns -= w.patterns
	switch {
	case w.number != "":
		return fmt.Errorf("cannot compile %s: the number %.40s… has more than %d characters or an exponent beyond %d, the budget of a compilation", u, w.number, MaxNumber, MaxNumber)
	case b.objects < 0:
		return fmt.Errorf("cannot compile %s: the schemas and the files they refer to hold more than %d schema objects, the budget of a compilation", u, MaxObjects)
	case b.patterns < 0:
		return fmt.Errorf("cannot compile %s: the patterns of the schemas and the files they refer to compile to more than %d instructions, the budget of a compilation", u, MaxPatternSize)
	}
	return nil
}

// countWalk counts the objects and booleans of a decoded document, each a
// schema wherever it stands, and the instructions of the patterns of
// "pattern" and "patternProperties" wherever they stand, and finds a
// number beyond MaxNumber.
type countWalk struct {
	objects  int
	patterns int64
	number   string
}

func (w *countWalk) value(v any) {
	switch v := v.(type) {
	case bool:
		w.objects++
	case json.Number:
		if w.number == "" && !numberWithin(string(v)) {
			w.number = string(v)
		}
	case []any:
		for _, x := range v {
			w.value(x)
		}
	case map[string]any:
		w.objects++
		if p, ok := v["pattern"].(string); ok {
			w.patterns += patternSize(p)
		}
		if props, ok := v["patternProperties"].(map[string]any); ok {
			for p := range props {
				w.patterns += patternSize(p)
			}
		}
		for _, x := range v {
			w.value(x)
		}
	}
}

// numberWithin reports whether a JSON number has at most MaxNumber
// characters and an exponent within ±MaxNumber.
func numberWithin(n string) bool {
	if len(n) > MaxNumber {
		return false
	}
	i := strings.IndexAny(n, "eE")
	if i < 0 {
		return true
	}
	exp, err := strconv.Atoi(strings.TrimPrefix(n[i+1:], "+"))
	return err == nil && exp >= -MaxNumber && exp <= MaxNumber
}

// read loads u through load, within the budget.
func (b *budget) read(load Loader, u string) ([]byte, error) {
	if load == nil {
		return nil, fmt.Errorf("cannot load %s: this schema refers to no other file", u)
	}
	if b.documents <= 0 {
		return nil, fmt.Errorf("cannot load %s: the schemas refer to more than %d files", u, MaxDocuments)
	}
	b.documents--
	rc, err := load(u)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, b.bytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > b.bytes {
		return nil, fmt.Errorf("cannot load %s: the schemas and the files they refer to exceed %d MiB", u, MaxBytes>>20)
	}
	b.bytes -= int64(len(data))
	if err := b.count(u, data); err != nil {
		return nil, err
	}
	return data, nil
}

// Folder is a Loader of the schema files in the folder tree of fsys, whose
// root is known by the file URL path base: a reference outside the tree,
// or not a file URL, is refused. fsys decides what may be opened (the
// runner's holds no links and only regular files of bounded size).
func Folder(fsys fs.FS, base string) Loader {
	base = path.Clean("/" + strings.TrimPrefix(base, "/"))
	return func(u string) (io.ReadCloser, error) {
		parsed, err := url.Parse(u)
		if err != nil || parsed.Scheme != "file" || parsed.Host != "" {
			return nil, fmt.Errorf("cannot load %s: only schema files of the schema's own folder are read", u)
		}
		p := path.Clean(parsed.Path)
		rel, ok := strings.CutPrefix(p, strings.TrimSuffix(base, "/")+"/")
		if !ok {
			return nil, fmt.Errorf("cannot load %s: it lies outside the schema's folder %s", u, base)
		}
		data, err := fs.ReadFile(fsys, rel)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}
}

// Error is a schema that did not compile.
type Error struct {
	Schema string // "command" or "fixture"
	Err    error
}

func (e *Error) Error() string { return e.Schema + " schema: " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// newCompiler returns a compiler that reads references through load,
// within the budget b, records each document it reads in files, and
// counts the steps of each validation with m.
func newCompiler(load Loader, b *budget, files *[]File, m *meter) *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		data, err := b.read(load, u)
		if err != nil {
			return nil, err
		}
		record(files, u, data)
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	c.RegisterExtension(stepsExtension, nil, stepCounter{m})
	return c
}

// compileRoot compiles the schema document f with c: its own bytes, never
// a copy c would load again from f.URL.
func compileRoot(c *jsonschema.Compiler, f Document) (*jsonschema.Schema, error) {
	if err := c.AddResource(f.URL, bytes.NewReader(f.Data)); err != nil {
		return nil, err
	}
	return c.Compile(f.URL)
}

func (e *evaluator) compileCommand(f Document, b *budget, files *[]File) error {
	record(files, f.URL, f.Data)
	if err := b.count(f.URL, f.Data); err != nil {
		return err
	}
	c := newCompiler(f.Load, b, files, e.meter)
	root, err := compileRoot(c, f)
	if err != nil {
		return err
	}
	e.command = root
	e.branches = map[string]*jsonschema.Schema{}

	var doc struct {
		OneOf []struct {
			Ref string `json:"$ref"`
		} `json:"oneOf"`
	}
	if err := json.Unmarshal(f.Data, &doc); err != nil {
		return err
	}
	docs := map[string]any{}
	for i, branch := range doc.OneOf {
		if branch.Ref == "" {
			continue
		}
		target, err := resolveRef(f.URL, branch.Ref)
		if err != nil {
			return fmt.Errorf("oneOf/%d: %w", i, err)
		}
		node, err := loadNode(target, f, docs, b, files)
		if err != nil {
			return fmt.Errorf("oneOf/%d: %w", i, err)
		}
		cmd, ok := constCmd(node)
		if !ok {
			continue
		}
		compiled, err := c.Compile(target)
		if err != nil {
			return fmt.Errorf("oneOf/%d (%s): %w", i, cmd, err)
		}
		e.branches[cmd] = compiled
	}
	return nil
}

func (e *evaluator) compileEnvelope(f, command Document, b *budget, files *[]File) error {
	record(files, f.URL, f.Data)
	if err := b.count(f.URL, f.Data); err != nil {
		return err
	}
	c := newCompiler(f.Load, b, files, e.meter)
	load := c.LoadURL
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		if u == command.URL || path.Base(u) == upstreamCommandFile {
			return io.NopCloser(strings.NewReader("true")), nil
		}
		return load(u)
	}
	env, err := compileRoot(c, f)
	if err != nil {
		return err
	}
	e.envelope = env
	return nil
}

func resolveRef(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return b.ResolveReference(r).String(), nil
}

// loadNode returns the JSON node a resolved reference points at.
// Documents it reads are recorded in files.
func loadNode(target string, root Document, cache map[string]any, b *budget, files *[]File) (any, error) {
	docURL, fragment, _ := strings.Cut(target, "#")
	doc, ok := cache[docURL]
	if !ok {
		var data []byte
		if docURL == root.URL {
			data = root.Data
		} else {
			var err error
			if data, err = b.read(root.Load, docURL); err != nil {
				return nil, err
			}
			record(files, docURL, data)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", docURL, err)
		}
		cache[docURL] = doc
	}
	node := doc
	if fragment == "" {
		return node, nil
	}
	unescaped, err := url.PathUnescape(fragment)
	if err != nil {
		return nil, err
	}
	for _, tok := range strings.Split(strings.TrimPrefix(unescaped, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := node.(map[string]any)
		if !ok {
			return nil, errors.New("reference does not resolve")
		}
		node = m[tok]
	}
	return node, nil
}

func constCmd(node any) (string, bool) {
	m, _ := node.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	cmd, _ := props["cmd"].(map[string]any)
	v, ok := cmd["const"].(string)
	return v, ok
}
