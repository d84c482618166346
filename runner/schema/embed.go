// Package schema holds the project's own JSON Schemas (draft 2020-12) for
// DRP2 2.0: one for a single command object and one for the fixture
// envelope. Both are written from the DRP2 prose and embedded so that the
// runner needs no files next to a corpus.
package schema

import _ "embed"

// Schema identifiers. They are the $id of each document; a compiler that is
// given the bytes under these URLs never fetches anything.
const (
	CommandID = "https://github.com/drp2/drp2-fixtures/schema/command.schema.json"
	FixtureID = "https://github.com/drp2/drp2-fixtures/schema/fixture.schema.json"
)

// Command is the command schema: its root is a oneOf with one
// {"$ref": "#/$defs/<Cmd>"} branch per active command, and every branch fixes
// properties.cmd.const, so a command's cmd names the branch that explains
// its failure.
//
//go:embed command.schema.json
var Command []byte

// Fixture is the fixture-envelope schema. It checks commands only as
// objects (a schema negative must stay envelope-valid) and requires a
// success stream to open with HelloRenderer then RendererHelloReply.
//
//go:embed fixture.schema.json
var Fixture []byte
