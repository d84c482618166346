package explore

import (
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/harness"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/escape"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// fromFailure is the built-in validator's verdict.
func fromFailure(f *model.Failure, cmds []any) model.StreamVerdict {
	if f == nil {
		return model.StreamVerdict{Outcome: string(model.Success), CommandIndex: -1}
	}
	v := model.StreamVerdict{Outcome: string(model.Error), Phase: string(f.Phase), Code: f.Code, CommandIndex: f.CommandIndex, Rule: f.Rule}
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
func fromHarness(h *harness.Verdict, err error, executes bool, builtin model.StreamVerdict, requests []harness.Request) model.StreamVerdict {
	if err != nil {
		return model.StreamVerdict{CommandIndex: -1, NoVerdict: escape.Cap(err.Error(), escape.MessageBytes)}
	}
	v := model.StreamVerdict{Outcome: h.Outcome, CommandIndex: -1}
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
func differences(builtin, impl model.StreamVerdict) []string {
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

// signature keys a disagreement: the rule the validator applied, its
// verdict, and what each implementation that differs answered. Two streams
// with one signature are one disagreement, counted twice. The
// implementations that agree, or gave no verdict, are not part of it.
func signature(builtin model.StreamVerdict, labels []string, impls []model.StreamVerdict) (string, bool) {
	var b strings.Builder
	rule := builtin.Rule
	if rule == "" {
		rule = "valid stream"
	}
	fmt.Fprintf(&b, "%s | %s", rule, explain.StreamVerdictKey(builtin))
	differ := false
	for i, v := range impls {
		if d := differences(builtin, v); len(d) > 0 {
			differ = true
			fmt.Fprintf(&b, " | %s: %s (%s)", labels[i], explain.StreamVerdictKey(v), strings.Join(d, ", "))
		}
	}
	return b.String(), differ
}
