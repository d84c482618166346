package drp2

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestWorkBudget: a stream whose checks would cost more than its work
// budget (here: re-submitting under the id of the last of 20,000 pending
// readback submissions, a scan of the whole queue each time) is refused
// without a verdict, at the same command every time, and fast; a number
// with more significant digits than exact arithmetic is budgeted for is
// refused too, while one with any number of trailing zeros is judged.
func TestWorkBudget(t *testing.T) {
	const pending = 20000
	cmds := []string{hello, reply, buffer(1, 16, `["MAP_READ"]`)}
	id := 10
	submit := func(sub int) {
		enc, cb := id, id+1
		id += 2
		cmds = append(cmds, encoder(enc), finish(enc, cb),
			cmd("QueueSubmit", "command_buffer_ids", fmt.Sprintf("[%d]", cb), "submission_id", sub, "readbacks", `[{"buffer_id":1,"offset":0,"size":16}]`))
	}
	for i := 0; i < pending; i++ {
		submit(100000 + i)
	}
	for i := 0; i < pending; i++ {
		submit(100000 + pending - 1)
	}
	s := tc{cmds: cmds}.stream()
	start := time.Now()
	f1, found := New().Check(context.Background(), s, nil)
	took := time.Since(start)
	f2, _ := New().Check(context.Background(), s, nil)
	if f1 == nil || !f1.Unjudged || !strings.Contains(f1.Message, "work budget") || found != nil {
		t.Fatalf("quadratic stream: %+v, findings %v", f1, found)
	}
	if f2 == nil || f2.CommandIndex != f1.CommandIndex || f2.Message != f1.Message {
		t.Errorf("two checks of one stream differ: %+v and %+v", f1, f2)
	}
	if f1.CommandIndex < 3*pending {
		t.Errorf("refused at command %d, before the re-submissions", f1.CommandIndex)
	}
	t.Logf("refused at command %d of %d after %v: %s", f1.CommandIndex, len(cmds), took, f1.Message)

	digits := "1" + strings.Repeat("7", maxCoefficientDigits) // one digit too many
	f, _ := New().Check(context.Background(), ok("", cmd("CreateBuffer", "id", 1, "size", digits, "usage", `["COPY_DST"]`)).stream(), nil)
	if f == nil || !f.Unjudged || !strings.Contains(f.Message, "significant digits") {
		t.Errorf("a size of %d significant digits: %+v", len(digits), f)
	}
	zeros := "1" + strings.Repeat("0", 100*maxCoefficientDigits)
	if f := verdictOf(New(), ok("", cmd("CreateBuffer", "id", 1, "size", zeros, "usage", `["COPY_DST"]`)).stream()); f != nil {
		t.Errorf("a size of one significant digit and %d zeros: %+v", 100*maxCoefficientDigits, f)
	}
}

// TestCheckStopsWithItsContext: a check whose context is done ends
// without a verdict and says why.
func TestCheckStopsWithItsContext(t *testing.T) {
	cmds := []string{hello, reply}
	for i := 0; i < 3*stopEvery; i++ {
		cmds = append(cmds, buffer(i+1, 16, `["COPY_DST"]`))
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(fmt.Errorf("the test's limit"))
	f, _ := New().Check(ctx, tc{cmds: cmds}.stream(), nil)
	if f == nil || !f.Unjudged || !strings.Contains(f.Message, "the test's limit") {
		t.Errorf("cancelled check: %+v", f)
	}
}
