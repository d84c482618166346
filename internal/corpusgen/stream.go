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
	fmt.Fprintf(bw, "  \"version\": {\"major\": %d, \"minor\": %d},\n  \"tags\": [\"positive\", \"generated\"],\n  \"commands\": [\n", s.Version.Major, s.Version.Minor)
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
