package corpusgen

import (
	"bufio"
	"fmt"
	"io"

	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// Stream writes one positive fixture named name whose stream has exactly n
// commands (n >= 2: the handshake comes first), one command per line.
func Stream(w io.Writer, name string, n int) error {
	if n < 2 {
		return fmt.Errorf("a positive stream needs at least the 2 handshake commands, not %d", n)
	}
	s := drp2.GenerateStream(n)
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "{\n  \"name\": %q,\n  \"description\": \"A generated valid stream of %d commands.\",\n", name, n)
	fmt.Fprintf(bw, "  \"version\": {\"major\": %s, \"minor\": %s},\n  \"tags\": [\"positive\", \"generated\"],\n  \"commands\": [\n", s.Version.Major, s.Version.Minor)
	for i, c := range s.Commands {
		bw.WriteString("    ")
		bw.Write(c)
		if i < len(s.Commands)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("  ],\n  \"expected\": {\"outcome\": \"success\"}\n}\n")
	return bw.Flush()
}

// Numbers writes one schema-negative fixture named name of about size
// bytes whose fourth command carries an array of number literals no DRP2
// field can hold (1e999999 and its kin): exact arithmetic spends tens of
// milliseconds on each, and past an exponent of about a million fails. A
// runner that judges them by their form rejects the fixture at once. The
// first of them that is not an integer (-1e-999999, a tiny fraction) makes
// it a schema error at command 3, which the fixture expects, so it passes
// where the numbers are judged by value.
func Numbers(w io.Writer, name string, size int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "{\n  \"name\": %q,\n  \"version\": {\"major\": 2, \"minor\": 0},\n  \"commands\": [\n", name)
	bw.WriteString(`    {"cmd": "HelloRenderer", "version": {"major": 2, "minor": 0}},` + "\n")
	bw.WriteString(`    {"cmd": "RendererHelloReply", "version": {"major": 2, "minor": 0}, "status": "ok"},` + "\n")
	bw.WriteString(`    {"cmd": "CreateBuffer", "id": 1, "size": 16, "usage": ["COPY_DST"]},` + "\n")
	bw.WriteString(`    {"cmd": "QueueSubmit", "command_buffer_ids": [`)
	hostile := []string{"1e999999", "-1e-999999", "9.99e999998", "1e9999999", "0e99999999999"}
	for n, i := 0, 0; n < size; i++ {
		k, _ := bw.WriteString(hostile[i%len(hostile)] + ", ")
		n += k
	}
	bw.WriteString("1]}\n  ],\n")
	bw.WriteString(`  "expected": {"outcome": "error", "phase": "schema_validation", "code": "DRP2_ERR_INVALID_ARGUMENT", "command_index": 3}` + "\n}\n")
	return bw.Flush()
}

// Cycles writes one positive fixture named name whose stream has exactly n
// commands: the handshake, then create/write/destroy cycles of distinct
// buffers (ids 1, 2, 3, ...), one command per line. A validator whose cost
// grows with the objects it has destroyed shows it here.
func Cycles(w io.Writer, name string, n int) error {
	if n < 2 {
		return fmt.Errorf("a positive stream needs at least the 2 handshake commands, not %d", n)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "{\n  \"name\": %q,\n  \"description\": \"A generated valid stream of %d commands: create, write and destroy cycles of distinct buffers.\",\n", name, n)
	bw.WriteString("  \"version\": {\"major\": 2, \"minor\": 0},\n  \"tags\": [\"positive\", \"generated\"],\n  \"commands\": [\n")
	bw.WriteString(`    {"cmd": "HelloRenderer", "version": {"major": 2, "minor": 0}},` + "\n")
	bw.WriteString(`    {"cmd": "RendererHelloReply", "version": {"major": 2, "minor": 0}, "status": "ok"}`)
	for i := 2; i < n; i++ {
		id := (i-2)/3 + 1
		switch (i - 2) % 3 {
		case 0:
			fmt.Fprintf(bw, ",\n  {\"cmd\":\"CreateBuffer\",\"id\":%d,\"size\":16,\"usage\":[\"COPY_DST\"]}", id)
		case 1:
			fmt.Fprintf(bw, ",\n  {\"cmd\":\"WriteBuffer\",\"buffer_id\":%d,\"offset\":0,\"size\":16,\"data\":\"AAAAAAAAAAAAAAAAAAAAAA==\"}", id)
		default:
			fmt.Fprintf(bw, ",\n  {\"cmd\":\"DestroyBuffer\",\"buffer_id\":%d}", id)
		}
	}
	bw.WriteString("\n  ],\n  \"expected\": {\"outcome\": \"success\"}\n}\n")
	return bw.Flush()
}
