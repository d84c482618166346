package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

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

	commandSource model.SchemaSource
	fixtureSource model.SchemaSource
}

// schemaFile is one schema document: where it came from and its bytes.
type schemaFile struct {
	source string // path or Embedded
	url    string // the URL the compiler knows it by
	data   []byte
}

// resolveSchema picks the schema for a flag value: the named file, the
// embedded copy, or with no flag the upstream layout when present.
func resolveSchema(workDir, flagValue, upstream string, embeddedURL string, embedded []byte) (schemaFile, error) {
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
	cmdFile, err := resolveSchema(workDir, cfg.CommandSchema, upCommand, schema.CommandID, schema.Command)
	if err != nil {
		return nil, err
	}
	fixFile, err := resolveSchema(workDir, cfg.FixtureSchema, upFixture, schema.FixtureID, schema.Fixture)
	if err != nil {
		return nil, err
	}
	if cmdFile.source == Embedded && fixFile.source == Embedded {
		// The embedded schemas never change: compile them once per process.
		embeddedOnce.Do(func() { embeddedSchemas, embeddedErr = compileSchemas(cmdFile, fixFile) })
		return embeddedSchemas, embeddedErr
	}
	return compileSchemas(cmdFile, fixFile)
}

var (
	embeddedOnce    sync.Once
	embeddedSchemas *schemas
	embeddedErr     error
)

func compileSchemas(cmdFile, fixFile schemaFile) (*schemas, error) {
	s := &schemas{commandSource: cmdFile.describe(), fixtureSource: fixFile.describe()}
	if err := s.compileCommand(cmdFile); err != nil {
		return nil, fmt.Errorf("command schema %s: %w", cmdFile.source, err)
	}
	if err := s.compileEnvelope(fixFile, cmdFile); err != nil {
		return nil, fmt.Errorf("fixture schema %s: %w", fixFile.source, err)
	}
	return s, nil
}

func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	// Only files on disk and the embedded documents: a schema never makes
	// the runner reach the network.
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		if !strings.HasPrefix(u, "file://") {
			return nil, fmt.Errorf("cannot load %s: only local schema files are read", u)
		}
		return jsonschema.LoadURL(u)
	}
	return c
}

// compileCommand compiles the root command schema and one validator per
// oneOf branch, keyed by the branch's properties.cmd.const, so that a
// command is checked against the branch its cmd names and the message names
// the real problem instead of "oneOf failed".
func (s *schemas) compileCommand(f schemaFile) error {
	c := newCompiler()
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
		node, err := loadNode(target, f, docs)
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
	c := newCompiler()
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
func loadNode(target string, root schemaFile, cache map[string]any) (any, error) {
	docURL, fragment, _ := strings.Cut(target, "#")
	doc, ok := cache[docURL]
	if !ok {
		var data []byte
		if docURL == root.url {
			data = root.data
		} else {
			rc, err := jsonschema.LoadURL(docURL)
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
