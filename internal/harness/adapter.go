package harness

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/drp2/drp2-fixtures/internal/protocol"
)

// Judge gives the verdict on one fixture for the adapter side of the
// protocol. Seq and Type are filled in by Serve.
type Judge func(f *protocol.Fixture) protocol.Verdict

// Serve is the implementation side of the protocol: it answers hello with
// me, each fixture with judge's verdict, and returns at goodbye or at the
// end of in. maxLine bounds one request line.
func Serve(in io.Reader, out io.Writer, me protocol.Hello, judge Judge, maxLine int) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	greeted := false
	for {
		line, err := readRequest(r, maxLine)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		head, err := protocol.DecodeHead(line)
		if err != nil {
			return err
		}
		var answer any
		switch {
		case head.Type == protocol.TypeGoodbye:
			return nil
		case head.Type == protocol.TypeHello:
			if answer, err = protocol.AnswerHello(me, head.Protocol); err != nil {
				return err
			}
			greeted = true
		case head.Type == protocol.TypeFixture && greeted:
			f, err := protocol.DecodeFixture(line)
			if err != nil {
				return err
			}
			v := judge(f)
			v.Type, v.Seq = protocol.TypeVerdict, f.Seq
			answer = v
		default:
			return fmt.Errorf("unexpected %q message", head.Type)
		}
		b, err := protocol.Encode(answer)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		// Every answer is flushed at once: the harness waits for it.
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// readRequest reads one request line; a last line without its '\n' still
// counts.
func readRequest(r *bufio.Reader, max int) ([]byte, error) {
	line, err := protocol.ReadLine(r, max)
	var long *protocol.LineTooLongError
	switch {
	case errors.As(err, &long):
		return nil, fmt.Errorf("a request is longer than %d bytes", max)
	case errors.Is(err, io.EOF) && len(line) > 0:
		return line, nil
	case err != nil:
		return nil, err
	}
	return line, nil
}
