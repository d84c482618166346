package junit

import (
	"fmt"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// imageSuites are a suite per implementation with Level 3 image checks,
// a testcase per image. An image that fails is a <failure> whose message
// is the bound it exceeded (max_channel_delta 1 > 0) when the run fails
// on level3; otherwise Level 3 is information, and the testcase passes
// with what it would have failed for in its system-out.
func imageSuites(run *model.Run, firstID int) []xmlSuite {
	judged := run.Judgement != nil && strings.Contains(","+run.Judgement.FailOn+",", ",level3,")
	var out []xmlSuite
	for i := range run.Implementations {
		im := &run.Implementations[i]
		if len(im.Images) == 0 {
			continue
		}
		suite := xmlSuite{Name: clean(escape.OneLine("level3 images: " + im.Label())), ID: firstID + len(out), Time: seconds(0)}
		if !run.Started.IsZero() {
			suite.Timestamp = run.Started.UTC().Format(time.RFC3339)
		}
		for j := range im.Images {
			suite.addTestcase(imageCase(&im.Images[j], im.Label(), judged))
		}
		out = append(out, suite)
	}
	return out
}

func imageCase(c *model.ImageCheck, label string, judged bool) testcase {
	tc := testcase{Name: clean(escape.OneLine(fmt.Sprintf("%s readback %d", c.Path, c.Readback))),
		Classname: clean(escape.OneLine("level3." + label))}
	var lines []string
	if m := explain.ImageMetrics(c); m != "" {
		lines = append(lines, m+"; tolerance "+c.Tolerance)
	}
	for _, f := range []struct{ name, path string }{{"reference", c.Reference}, {"actual", c.Actual}, {"diff", c.Diff}, {"reference written", c.Updated}} {
		if f.path != "" {
			lines = append(lines, f.name+" "+f.path)
		}
	}
	text := clean(strings.Join(lines, "\n"))
	failure := explain.ImageFailure(c)
	switch {
	case failure != "" && judged:
		tc.Failure = &result{Message: clean(escape.OneLine(failure)), Type: string(c.Verdict), Data: text}
	case failure != "":
		text = clean(escape.OneLine(failure)+" (information: the run does not fail on level3)") + "\n" + text
		fallthrough
	default:
		if strings.TrimSpace(text) != "" {
			tc.SystemOut = &output{Data: text}
		}
	}
	return tc
}
