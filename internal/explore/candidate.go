package explore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/explain"
)

// candidate makes a disagreement's minimized stream a fixture: in the
// folder of the validator's verdict's class, named after the rule and the
// signature, with the validator's verdict as its expected block and a
// description of what each implementation answered.
func (e *explorer) candidate(st *stream, d *model.Disagreement, original, tests int) model.CandidateFixture {
	class := model.ClassNegative
	switch {
	case st.builtin.Outcome == string(model.Success):
		class = model.ClassPositive
	case st.builtin.Phase == string(model.PhaseSchema):
		class = model.ClassSchemaNegative
	}
	sum := sha256.Sum256([]byte(d.Signature))
	name := "explore_" + slug(d.Rule) + "_" + hex.EncodeToString(sum[:4])
	type expected struct {
		Outcome      string `json:"outcome"`
		Phase        string `json:"phase,omitempty"`
		Code         string `json:"code,omitempty"`
		CommandIndex *int   `json:"command_index,omitempty"`
	}
	exp := expected{Outcome: st.builtin.Outcome, Phase: st.builtin.Phase, Code: st.builtin.Code}
	if st.builtin.Outcome == string(model.Error) && st.builtin.CommandIndex >= 0 {
		i := st.builtin.CommandIndex
		exp.CommandIndex = &i
	}
	doc := struct {
		Name         string            `json:"name"`
		Description  string            `json:"description"`
		Version      json.RawMessage   `json:"version"`
		Capabilities json.RawMessage   `json:"capabilities,omitempty"`
		Tags         []string          `json:"tags"`
		Commands     []json.RawMessage `json:"commands"`
		Expected     expected          `json:"expected"`
	}{Name: name, Description: e.describe(st, d), Version: st.version, Capabilities: st.caps,
		Tags: []string{"explore"}, Commands: st.raw, Expected: exp}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		// Not reached: every part is valid JSON or a plain value.
		panic(err)
	}
	return model.CandidateFixture{Path: class.Folder() + "/" + name + ".json", Name: name, Commands: len(st.cmds),
		Original: original, Tests: tests, Data: b.Bytes()}
}

// describe says where the stream came from, the rule the validator
// applied and what each implementation answered.
func (e *explorer) describe(st *stream, d *model.Disagreement) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Found by drp2-fixtures explore (seed %d, stream %d, %s", e.cfg.Seed, d.First, explain.StreamKind(d.Kind))
	if d.From != "" {
		fmt.Fprintf(&b, ", from %s", d.From)
	}
	b.WriteString("). The built-in validator answers ")
	b.WriteString(explain.StreamVerdict(st.builtin))
	if st.builtin.Outcome == string(model.Error) {
		fmt.Fprintf(&b, " by %s", d.Rule)
	}
	b.WriteString(".")
	for _, a := range d.Answers {
		if len(a.Differs) == 0 {
			fmt.Fprintf(&b, " %s agrees.", a.Implementation)
			continue
		}
		fmt.Fprintf(&b, " %s answers %s (differs in %s).", a.Implementation, explain.StreamVerdict(a.Verdict), strings.Join(a.Differs, ", "))
	}
	return b.String()
}

// slug makes a rule a file name part: lower-case letters, digits and
// single underscores, at most 48 bytes.
func slug(s string) string {
	var b strings.Builder
	under := true
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	return strings.Trim(b.String(), "_")
}
