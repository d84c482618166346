package explore

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
)

// Verdict is one verdict on one stream: the built-in validator's, or an
// implementation's as the harness judges it.
type Verdict struct {
	// Outcome is "success" or "error"; empty when the implementation gave
	// no verdict (NoVerdict says why).
	Outcome string `json:"outcome,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Code    string `json:"code,omitempty"`
	// CommandIndex is the failing command, -1 when none is named.
	CommandIndex int `json:"command_index"`
	// Rule is the rule the built-in validator applied; for the command
	// schema, "command schema" and the command's name.
	Rule string `json:"rule,omitempty"`
	// Replies is what is wrong with an executing implementation's
	// readback replies (Level 2), empty when they have the right shape.
	Replies   string `json:"replies,omitempty"`
	NoVerdict string `json:"no_verdict,omitempty"`
	// NotClaimed is set when the validator's verdict fails the stream in a
	// phase the implementation does not perform: the stream was not sent.
	NotClaimed bool `json:"not_claimed,omitempty"`
}

// fromFailure is the built-in validator's verdict.
func fromFailure(f *model.Failure, cmds []any) Verdict {
	if f == nil {
		return Verdict{Outcome: string(model.Success), CommandIndex: -1}
	}
	v := Verdict{Outcome: string(model.Error), Phase: string(f.Phase), Code: f.Code, CommandIndex: f.CommandIndex, Rule: f.Rule}
	if f.Phase == model.PhaseSchema {
		v.Rule = "command schema"
		if f.CommandIndex >= 0 && f.CommandIndex < len(cmds) {
			if name := cmdName(cmds[f.CommandIndex]); name != "" {
				v.Rule += " " + escape.Cap(name, 64)
			}
		}
	}
	return v
}

// fromHarness is an implementation's verdict, with its replies judged
// when it executes streams and the stream is valid.
func fromHarness(h *harness.Verdict, err error, executes bool, builtin Verdict, requests []harness.Request) Verdict {
	if err != nil {
		return Verdict{CommandIndex: -1, NoVerdict: escape.Cap(err.Error(), escape.MessageBytes)}
	}
	v := Verdict{Outcome: h.Outcome, CommandIndex: -1}
	if h.Outcome == string(model.Error) {
		v.Phase, v.Code = escape.Cap(h.Phase, escape.MessageBytes), escape.Cap(h.Code, escape.MessageBytes)
		if h.CommandIndex != nil {
			v.CommandIndex = *h.CommandIndex
		}
	}
	if executes && builtin.Outcome == string(model.Success) && v.Outcome == string(model.Success) {
		if e := harness.CheckReplies(requests, h.Replies); e != nil {
			v.Replies = escape.Cap(e.Message, escape.MessageBytes)
		}
	}
	return v
}

// differences lists how an implementation's verdict differs from the
// built-in validator's, judged as run judges it against a fixture whose
// expected block is the validator's verdict (runner.Match): outcome; phase
// when both fail and the implementation names one (protocol 2 lets it
// leave the phase out); code when both fail; the command index when the
// validator names one; the readback replies' shape for an executing
// implementation on a valid stream. A stream without a verdict, or not
// sent because the implementation does not perform the failing phase,
// differs in nothing: it says nothing about the implementation.
func differences(builtin, impl Verdict) []string {
	if impl.NoVerdict != "" || impl.NotClaimed {
		return nil
	}
	if impl.Outcome != builtin.Outcome {
		return []string{"outcome"}
	}
	var d []string
	if builtin.Outcome == string(model.Error) {
		if impl.Phase != "" && impl.Phase != builtin.Phase {
			d = append(d, "phase")
		}
		if impl.Code != builtin.Code {
			d = append(d, "code")
		}
		if builtin.CommandIndex >= 0 && impl.CommandIndex != builtin.CommandIndex {
			d = append(d, "command index")
		}
	}
	if impl.Replies != "" {
		d = append(d, "reply shape")
	}
	return d
}

// short is a verdict without its command index: what a signature keeps,
// so that one disagreement at different places is one signature.
func (v Verdict) short() string {
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

// String is a verdict for people.
func (v Verdict) String() string {
	s := v.short()
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

// signature keys a disagreement: the rule the validator applied, its
// verdict, and what each implementation that differs answered. Two streams
// with one signature are one disagreement, counted twice. The
// implementations that agree, or gave no verdict, are not part of it.
func signature(builtin Verdict, labels []string, impls []Verdict) (string, bool) {
	var b strings.Builder
	rule := builtin.Rule
	if rule == "" {
		rule = "valid stream"
	}
	fmt.Fprintf(&b, "%s | %s", rule, builtin.short())
	differ := false
	for i, v := range impls {
		if d := differences(builtin, v); len(d) > 0 {
			differ = true
			fmt.Fprintf(&b, " | %s: %s (%s)", labels[i], v.short(), strings.Join(d, ", "))
		}
	}
	return b.String(), differ
}
