package jsonout

// WriteWhole is the report as it was written before it was streamed, for
// the tests of package jsonout_test, which run real jobs through the gate.
var WriteWhole = writeDocumentWhole
