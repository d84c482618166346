package testkit

// Corpora the command line's and the action's tests both run.

// Passing is a corpus of two fixtures under fixtures/ that both pass: a
// positive handshake and a schema negative. Callers must not modify it.
var Passing = map[string]string{
	"fixtures/positive/ok.json":         Fixture("ok", `{"outcome": "success"}`, Hello, Reply),
	"fixtures/negative_schema/bad.json": Fixture("bad", `{"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 2}`, Hello, Reply, `{"cmd": "Draw"}`),
}

// InvalidID is the expected block of a negative fixture that writes to a
// buffer it never created (WriteCmd, at command 2).
const (
	InvalidID = `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_INVALID_ID", "command_index": 2}`
	WriteCmd  = `{"cmd": "WriteBuffer", "buffer_id": 7, "offset": 0, "size": 4, "data": "AAAAAA=="}`
)

// ManifestCorpus is Passing with a semantic negative.
func ManifestCorpus() map[string]string {
	m := map[string]string{"fixtures/negative/unknown.json": Fixture("unknown", InvalidID, Hello, Reply, WriteCmd)}
	for k, v := range Passing {
		m[k] = v
	}
	return m
}

const readback = `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST", "MAP_READ"]},
    {"cmd": "BeginCommandEncoder", "id": 2},
    {"cmd": "FinishCommandEncoder", "encoder_id": 2, "command_buffer_id": 3},
    {"cmd": "QueueSubmit", "command_buffer_ids": [3], "submission_id": 10, "readbacks": [{"buffer_id": 1, "offset": 0, "size": 16}]}`

// HarnessCorpus has a positive readback stream, a duplicate id (the
// example adapter blames the wrong command) and a schema negative.
// Callers must not modify it.
var HarnessCorpus = map[string]string{
	"fixtures/positive/readback.json": Fixture("readback", `{"outcome": "success"}`, Hello, Reply, readback),
	"fixtures/negative/duplicate.json": Fixture("duplicate", `{"outcome": "error", "phase": "semantic_validation", "code": "DRP2_ERR_DUPLICATE_ID", "command_index": 3}`,
		Hello, Reply, `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`, `{"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]}`),
	"fixtures/negative_schema/notobject.json": Fixture("notobject", `{"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 2}`, Hello, Reply, `{"cmd": 7}`),
}
