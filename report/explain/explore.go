package explain

// The words of an exploration: its verdicts on generated streams and how
// a stream was made, for the explore reports and the candidate fixtures'
// descriptions alike.

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// StreamVerdictKey is a verdict without its command index: what a
// disagreement's signature keeps, so that one disagreement at different
// places is one signature.
func StreamVerdictKey(v model.StreamVerdict) string {
	switch {
	case v.NoVerdict != "":
		return "no verdict"
	case v.NotClaimed:
		return "not claimed"
	case v.Outcome == string(model.Success):
		return "success"
	case v.Phase == "":
		return "error " + v.Code
	}
	return fmt.Sprintf("error %s %s", v.Phase, v.Code)
}

// StreamVerdict is a verdict on a generated stream for people: the
// failing command, the replies' trouble and why there is no verdict
// included.
func StreamVerdict(v model.StreamVerdict) string {
	s := StreamVerdictKey(v)
	if v.NoVerdict != "" {
		return s + " (" + v.NoVerdict + ")"
	}
	if v.Outcome == string(model.Error) && v.CommandIndex >= 0 {
		s += fmt.Sprintf(" at command %d", v.CommandIndex)
	}
	if v.Replies != "" {
		s += ", replies: " + v.Replies
	}
	return s
}

// StreamKind says how a stream of kind was made, for a sentence.
func StreamKind(kind string) string {
	switch {
	case kind == model.StreamMutation:
		return "a mutation of a corpus stream"
	case strings.HasPrefix(kind, model.StreamSatisfies+" "):
		return "aimed to just satisfy " + strings.TrimPrefix(kind, model.StreamSatisfies+" ")
	case strings.HasPrefix(kind, model.StreamBreaks+" "):
		return "aimed to just break " + strings.TrimPrefix(kind, model.StreamBreaks+" ")
	}
	return kind
}
