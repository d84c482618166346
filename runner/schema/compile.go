package schema

import (
	"bytes"
	"fmt"
	"io"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// CompileCommand compiles the embedded command schema.
func CompileCommand() (*jsonschema.Schema, error) { return compile(CommandID, Command) }

// CompileFixture compiles the embedded fixture-envelope schema.
func CompileFixture() (*jsonschema.Schema, error) { return compile(FixtureID, Fixture) }

// compile builds one self-contained schema. Loading from any other URL is
// refused so that a stray reference can never reach the network or disk.
func compile(id string, doc []byte) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("schema %s: reference to %s outside the embedded document", id, u)
	}
	if err := c.AddResource(id, bytes.NewReader(doc)); err != nil {
		return nil, fmt.Errorf("add schema %s: %w", id, err)
	}
	s, err := c.Compile(id)
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", id, err)
	}
	return s, nil
}
