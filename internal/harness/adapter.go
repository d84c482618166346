package harness

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Judge gives the verdict on one fixture for the adapter side of the
// protocol. Seq and Type are filled in by Serve.
type Judge func(f *Fixture) Verdict

// Serve is the implementation side of the protocol: it answers hello with
// me, each fixture with judge's verdict, and returns at goodbye or at the
// end of in. maxLine bounds one request line.
func Serve(in io.Reader, out io.Writer, me Hello, judge Judge, maxLine int) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	me.Type = TypeHello
	greeted := false
	for {
		line, err := readRequest(r, maxLine)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var head struct {
			Type     string `json:"type"`
			Protocol int    `json:"protocol"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return fmt.Errorf("not a protocol message: %v", err)
		}
		var answer any
		switch {
		case head.Type == TypeGoodbye:
			return nil
		case head.Type == TypeHello:
			// The answer is in the harness's version when this side speaks
			// it, else in this side's newest, which the harness then
			// refuses with both numbers.
			if head.Protocol < MinProtocolVersion {
				return fmt.Errorf("the harness speaks protocol %d; this adapter speaks %d to %d", head.Protocol, MinProtocolVersion, ProtocolVersion)
			}
			me.Protocol = min(head.Protocol, ProtocolVersion)
			answer = me
			if me.Protocol < 2 {
				v1 := me
				v1.Phases, v1.Adapter, v1.Error = nil, nil, ""
				answer = v1
			}
			greeted = true
		case head.Type == TypeFixture && greeted:
			var f Fixture
			if err := strictDecode(line, &f); err != nil {
				return err
			}
			v := judge(&f)
			v.Type, v.Seq = TypeVerdict, f.Seq
			answer = v
		default:
			return fmt.Errorf("unexpected %q message", head.Type)
		}
		b, err := encode(answer)
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

func readRequest(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, fmt.Errorf("a request is longer than %d bytes", max)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
