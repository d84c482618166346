package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner/schema"
)

// Embedded names the project's own schemas in Config and in reports.
const Embedded = "embedded"

// Upstream layout: where a DRP2 checkout keeps its schemas relative to the
// corpus root (fixtures/schema/... and schema/... beside fixtures/).
const (
	upstreamFixtureSchema = "schema/drp_fixture.schema.json"
	upstreamCommandSchema = "../schema/drp_command.json"
)

// Codes the command-schema phase reports. ERRORS.md lists no schema-specific
// code; the corpus expects INVALID_ARGUMENT for malformed command objects,
// and UNKNOWN_COMMAND is the most specific code for a cmd that names no
// active command.
const (
	codeSchemaInvalid  = "DRP2_ERR_INVALID_ARGUMENT"
	codeUnknownCommand = "DRP2_ERR_UNKNOWN_COMMAND"
)

// schemas holds the compiled envelope and command schemas of a run.
type schemas struct {
	envelope *jsonschema.Schema
	// root is the whole command schema; branches maps each active cmd to
	// the root's oneOf branch that describes it.
	root     *jsonschema.Schema
	branches map[string]*jsonschema.Schema

	// verdicts caches command verdicts by the command's bytes; cached
	// counts the entries stored.
	verdicts sync.Map
	cached   atomic.Int64

	commandSource model.SchemaSource
	fixtureSource model.SchemaSource

	// load reads a schema document a reference names: from disk, or
	// from Config.SchemaFS.
	load func(string) (io.ReadCloser, error)
}

// schemaFile is one schema document: where it came from and its bytes.
type schemaFile struct {
	source string // path or Embedded
	url    string // the URL the compiler knows it by
	data   []byte
}

// resolveSchema picks the schema for a flag value: the named file, the
// embedded copy, or with no flag the upstream layout when present. With a
// schema file system the flag value is a slash path inside it.
func resolveSchema(workDir string, fsys fs.FS, flagValue, upstream string, embeddedURL string, embedded []byte) (schemaFile, error) {
	if fsys != nil && flagValue != "" && flagValue != Embedded {
		name := path.Clean(strings.TrimPrefix(filepath.ToSlash(flagValue), "/"))
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return schemaFile{}, fmt.Errorf("read schema: %w", err)
		}
		return schemaFile{source: flagValue, url: fsURL(name), data: data}, nil
	}
	p := flagValue
	if p == "" && upstream != "" {
		if st, err := os.Stat(upstream); err == nil && st.Mode().IsRegular() {
			p = upstream
		}
	}
	if p == "" || p == Embedded {
		return schemaFile{source: Embedded, url: embeddedURL, data: embedded}, nil
	}
	abs := resolve(workDir, p)
	data, err := os.ReadFile(abs)
	if err != nil {
		return schemaFile{}, fmt.Errorf("read schema: %w", err)
	}
	return schemaFile{source: displaySchema(workDir, abs), url: fileURL(abs), data: data}, nil
}

// displaySchema shows a schema path relative to the working directory
// when it lies under it, like fixture paths.
func displaySchema(workDir, abs string) string {
	if r, ok := Within(workDir, abs); ok {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}

// fsURL is the URL a schema read from Config.SchemaFS is known by: a file
// URL rooted at the file system's root, so that relative references
// resolve inside it and loadFS can turn them back into names.
func fsURL(name string) string {
	return (&url.URL{Scheme: "file", Path: "/" + name}).String()
}

// loadFS reads schema documents referred to by URL from fsys.
func loadFS(fsys fs.FS) func(string) (io.ReadCloser, error) {
	return func(u string) (io.ReadCloser, error) {
		parsed, err := url.Parse(u)
		if err != nil || parsed.Scheme != "file" {
			return nil, fmt.Errorf("cannot load %s: only schema files of the same tree are read", u)
		}
		data, err := fs.ReadFile(fsys, strings.TrimPrefix(path.Clean(parsed.Path), "/"))
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}
}

func fileURL(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func (f schemaFile) describe() model.SchemaSource {
	sum := sha256.Sum256(f.data)
	return model.SchemaSource{Source: f.source, SHA256: hex.EncodeToString(sum[:])}
}

// loadSchemas resolves and compiles both schemas for a corpus on disk
// (corpusDir empty for the embedded corpus).
func loadSchemas(cfg Config, workDir, corpusDir string) (*schemas, error) {
	var upFixture, upCommand string
	if corpusDir != "" {
		upFixture = filepath.Join(corpusDir, filepath.FromSlash(upstreamFixtureSchema))
		upCommand = filepath.Join(corpusDir, filepath.FromSlash(upstreamCommandSchema))
	}
	cmdFile, err := resolveSchema(workDir, cfg.SchemaFS, cfg.CommandSchema, upCommand, schema.CommandID, schema.Command)
	if err != nil {
		return nil, err
	}
	fixFile, err := resolveSchema(workDir, cfg.SchemaFS, cfg.FixtureSchema, upFixture, schema.FixtureID, schema.Fixture)
	if err != nil {
		return nil, err
	}
	if cmdFile.source == Embedded && fixFile.source == Embedded {
		// The embedded schemas never change: compile them once per process.
		embeddedOnce.Do(func() { embeddedSchemas, embeddedErr = compileSchemas(cmdFile, fixFile, jsonschema.LoadURL) })
		return embeddedSchemas, embeddedErr
	}
	load := jsonschema.LoadURL
	if cfg.SchemaFS != nil {
		load = loadFS(cfg.SchemaFS)
	}
	return compileSchemas(cmdFile, fixFile, load)
}

var (
	embeddedOnce    sync.Once
	embeddedSchemas *schemas
	embeddedErr     error
)

func compileSchemas(cmdFile, fixFile schemaFile, load func(string) (io.ReadCloser, error)) (*schemas, error) {
	s := &schemas{commandSource: cmdFile.describe(), fixtureSource: fixFile.describe(), load: load}
	if err := s.compileCommand(cmdFile); err != nil {
		return nil, fmt.Errorf("command schema %s: %w", cmdFile.source, err)
	}
	if err := s.compileEnvelope(fixFile, cmdFile); err != nil {
		return nil, fmt.Errorf("fixture schema %s: %w", fixFile.source, err)
	}
	return s, nil
}

func (s *schemas) newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	// Only files on disk and the embedded documents: a schema never makes
	// the runner reach the network.
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		if !strings.HasPrefix(u, "file://") {
			return nil, fmt.Errorf("cannot load %s: only local schema files are read", u)
		}
		return s.load(u)
	}
	return c
}

// compileCommand compiles the root command schema and one validator per
// oneOf branch, keyed by the branch's properties.cmd.const, so that a
// command is checked against the branch its cmd names and the message names
// the real problem instead of "oneOf failed".
func (s *schemas) compileCommand(f schemaFile) error {
	c := s.newCompiler()
	if err := c.AddResource(f.url, bytes.NewReader(f.data)); err != nil {
		return err
	}
	root, err := c.Compile(f.url)
	if err != nil {
		return err
	}
	s.root = root
	s.branches = map[string]*jsonschema.Schema{}

	var doc struct {
		OneOf []struct {
			Ref string `json:"$ref"`
		} `json:"oneOf"`
	}
	if err := json.Unmarshal(f.data, &doc); err != nil {
		return err
	}
	docs := map[string]any{}
	for i, branch := range doc.OneOf {
		if branch.Ref == "" {
			continue
		}
		target, err := resolveRef(f.url, branch.Ref)
		if err != nil {
			return fmt.Errorf("oneOf/%d: %w", i, err)
		}
		node, err := loadNode(target, f, docs, s.load)
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
		s.branches[cmd] = compiled
	}
	return nil
}

// compileEnvelope compiles the fixture schema. The envelope phase checks
// the envelope only: a reference from it into the command schema (the
// upstream fixture schema has one) is replaced by an accept-all schema,
// because commands are the command-schema phase's business and a bad
// command must not be reported as a corpus-authoring error.
func (s *schemas) compileEnvelope(f, command schemaFile) error {
	c := s.newCompiler()
	load := c.LoadURL
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		if u == command.url || path.Base(u) == path.Base(filepath.ToSlash(upstreamCommandSchema)) {
			return io.NopCloser(strings.NewReader("true")), nil
		}
		return load(u)
	}
	if err := c.AddResource(f.url, bytes.NewReader(f.data)); err != nil {
		return err
	}
	env, err := c.Compile(f.url)
	if err != nil {
		return err
	}
	s.envelope = env
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
func loadNode(target string, root schemaFile, cache map[string]any, load func(string) (io.ReadCloser, error)) (any, error) {
	docURL, fragment, _ := strings.Cut(target, "#")
	doc, ok := cache[docURL]
	if !ok {
		var data []byte
		if docURL == root.url {
			data = root.data
		} else {
			rc, err := load(docURL)
			if err != nil {
				return nil, err
			}
			data, err = io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
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

// verdict is the command schema's judgement of one command object.
type verdict struct {
	ok      bool
	code    string
	pointer string
	message string
}

// Bounds of the verdict cache: small commands only, and a fixed number of
// them, so that memory stays bounded on any corpus.
const (
	maxCachedCommandBytes = 4 << 10
	maxCachedCommands     = 1 << 16
)

// Long streams are checked in chunks on all cores: the schema phase of a
// single million-command fixture would otherwise leave every core but one
// idle.
const (
	parallelCommands = 4096
	commandChunk     = 1024
)

// checkCommands runs the command-schema phase over the commands at spans
// of data and returns the failure of the first failing command, or nil.
func (s *schemas) checkCommands(data []byte, spans [][2]int) *model.Failure {
	workers := runtime.GOMAXPROCS(0)
	if len(spans) < parallelCommands || workers < 2 {
		for i, r := range spans {
			if f := s.checkCommand(i, data[r[0]:r[1]]); f != nil {
				return f
			}
		}
		return nil
	}
	var (
		next  atomic.Int64 // start of the next chunk to take
		mu    sync.Mutex
		first *model.Failure // failure with the lowest index so far
		wg    sync.WaitGroup
	)
	// bound is the index no chunk needs to pass: every chunk that starts
	// below the final first failure is checked in full, so the lowest
	// failing index is always found.
	bound := func() int {
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			return len(spans)
		}
		return first.CommandIndex
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				start := int(next.Add(commandChunk)) - commandChunk
				if start >= len(spans) || start >= bound() {
					return
				}
				end := min(start+commandChunk, len(spans))
				for i := start; i < end; i++ {
					if f := s.checkCommand(i, data[spans[i][0]:spans[i][1]]); f != nil {
						mu.Lock()
						if first == nil || f.CommandIndex < first.CommandIndex {
							first = f
						}
						mu.Unlock()
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// checkCommand validates one command from its bytes as written. It
// returns nil when the command is valid.
//
// Verdicts are cached by the command's exact bytes: a schema verdict is a
// pure function of them, and corpora repeat commands a lot (every stream
// opens with the same handshake), while JSON Schema validation is the most
// expensive step of a run.
func (s *schemas) checkCommand(index int, raw []byte) *model.Failure {
	var vd verdict
	if len(raw) <= maxCachedCommandBytes {
		if cached, ok := s.verdicts.Load(string(raw)); ok {
			vd = cached.(verdict)
		} else {
			vd = s.judge(decodeValue(raw))
			if s.cached.Add(1) <= maxCachedCommands {
				s.verdicts.Store(string(raw), vd)
			}
		}
	} else {
		vd = s.judge(decodeValue(raw))
	}
	if vd.ok {
		return nil
	}
	return &model.Failure{Phase: model.PhaseSchema, Code: vd.code, CommandIndex: index, Pointer: vd.pointer,
		Message: fmt.Sprintf("command %d: %s", index, vd.message)}
}

// judge validates one decoded command object against the branch its cmd
// names, or against the whole schema when cmd names none.
func (s *schemas) judge(v any) verdict {
	fail := func(code, pointer, msg string) verdict {
		return verdict{code: code, pointer: pointer, message: msg}
	}
	obj, isObject := v.(map[string]any)
	cmdValue, hasCmd := obj["cmd"]
	cmd, cmdIsString := cmdValue.(string)
	if isObject && cmdIsString {
		if branch := s.branches[cmd]; branch != nil {
			if err := branch.Validate(v); err != nil {
				pointer, msg := leafError(err)
				return fail(codeSchemaInvalid, pointer, fmt.Sprintf("%s: %s", cmd, msg))
			}
			return verdict{ok: true}
		}
	}
	err := s.root.Validate(v)
	if err == nil {
		return verdict{ok: true}
	}
	switch {
	case !isObject:
		return fail(codeSchemaInvalid, "", "a command must be a JSON object")
	case !hasCmd:
		return fail(codeSchemaInvalid, "", `missing the "cmd" discriminator`)
	case !cmdIsString:
		return fail(codeSchemaInvalid, "/cmd", `"cmd" must be a string naming a command`)
	case len(s.branches) > 0:
		return fail(codeUnknownCommand, "/cmd", fmt.Sprintf("unknown command %q: not one of the %d active commands", cmd, len(s.branches)))
	}
	pointer, msg := leafError(err)
	return fail(codeSchemaInvalid, pointer, msg)
}

// leafError picks the most specific cause of a validation error: the
// deepest instance location, and the first of those in schema order.
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
		for _, c := range e.Causes {
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

func depth(pointer string) int { return strings.Count(pointer, "/") }
