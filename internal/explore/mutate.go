package explore

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/jsontree"
)

// Mutations of the corpus's own streams: values at and past their bounds,
// ids swapped, pointed at no object or reused, commands dropped, repeated
// or moved, members removed, lists shortened or repeated, enums changed and
// readback replies reshaped. The schema mutations (types changed, numbers
// made negative or fractional, members added, command names changed) are
// used only for streams aimed at the command schema.

// mutate applies one mutation chosen by r to a copy of cmds. It returns nil
// when the chosen mutation has nothing to act on.
func (p *pool) mutate(cmds []any, r *rng) []any {
	if len(cmds) == 0 {
		return nil
	}
	return p.mutateAt(cmds, r.intn(len(cmds)), r)
}

// mutateAt applies one mutation chosen by r to command c of a copy of
// cmds (or, for id reuse and replies, to the command they pick). Only the
// commands changed are copied: the others are shared, never modified.
func (p *pool) mutateAt(cmds []any, c int, r *rng) []any {
	cmds = append([]any(nil), cmds...)
	cmds[c] = jsontree.Clone(cmds[c])
	switch r.intn(12) {
	case 0, 1, 2:
		return p.number(cmds, c, r)
	case 3:
		return idSwap(cmds, c, r)
	case 4:
		return idFresh(cmds, c, r)
	case 5:
		return idReuse(cmds, r)
	case 6:
		return p.enum(cmds, c, r)
	case 7:
		return dropMember(cmds, c, r, false)
	case 8:
		return list(cmds, c, r)
	case 9:
		return reply(cmds, r)
	default:
		return reorder(cmds, c, r)
	}
}

// mutateSchema applies one mutation that the command schema should
// refuse.
func (p *pool) mutateSchema(cmds []any, r *rng) []any {
	if len(cmds) == 0 {
		return nil
	}
	c := r.intn(len(cmds))
	cmds = append([]any(nil), cmds...)
	cmds[c] = jsontree.Clone(cmds[c])
	switch r.intn(5) {
	case 0: // a value of another JSON type
		s := pick(jsontree.Slots(cmds[c]), r, func(s jsontree.Slot) bool { return s.Key != "cmd" })
		if s == nil {
			return nil
		}
		switch v := s.Val.(type) {
		case json.Number:
			s.Set(string(v))
		case string:
			s.Set(json.Number("1"))
		case []any:
			s.Set(map[string]any{})
		case map[string]any:
			s.Set([]any{})
		default:
			s.Set("x")
		}
	case 1: // a negative or fractional number
		s := pick(jsontree.Slots(cmds[c]), r, isNumber)
		if s == nil {
			return nil
		}
		if r.intn(2) == 0 {
			s.Set(json.Number("-1"))
		} else {
			s.Set(json.Number(string(s.Val.(json.Number)) + ".5"))
		}
	case 2: // a member no command has
		m, ok := cmds[c].(map[string]any)
		if !ok {
			return nil
		}
		m["unexpected_member"] = json.Number("1")
	case 3: // a required member, cmd included, removed
		return dropMember(cmds, c, r, true)
	default: // a command name that is not a command
		m, ok := cmds[c].(map[string]any)
		if !ok {
			return nil
		}
		if name, _ := m["cmd"].(string); name != "" {
			m["cmd"] = name + "X"
		}
	}
	return cmds
}

func isNumber(s jsontree.Slot) bool { _, ok := s.Val.(json.Number); return ok }

func isID(s jsontree.Slot) bool {
	return isNumber(s) && (s.Key == "id" || strings.HasSuffix(s.Key, "_id") || strings.HasSuffix(s.Key, "_ids"))
}

// pick chooses one of the slots that keep says yes to, nil when none does.
func pick(all []jsontree.Slot, r *rng, keep func(jsontree.Slot) bool) *jsontree.Slot {
	var ok []int
	for i := range all {
		if keep(all[i]) {
			ok = append(ok, i)
		}
	}
	if len(ok) == 0 {
		return nil
	}
	return &all[ok[r.intn(len(ok))]]
}

// numbers lists the integer values of the stream: the ids, sizes and
// offsets a value can be set to, so that a range lands exactly on another
// object's bound.
func numbers(cmds []any, keep func(jsontree.Slot) bool) []int64 {
	var out []int64
	for _, c := range cmds {
		for _, s := range jsontree.Slots(c) {
			if keep(s) {
				if n, err := strconv.ParseInt(string(s.Val.(json.Number)), 10, 64); err == nil {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// number sets a number of command c at or past a bound: zero, one off
// either way, doubled, another value of the stream, or the edges of 32 and
// 53 bits.
func (p *pool) number(cmds []any, c int, r *rng) []any {
	s := pick(jsontree.Slots(cmds[c]), r, isNumber)
	if s == nil {
		return nil
	}
	n, err := strconv.ParseInt(string(s.Val.(json.Number)), 10, 64)
	if err != nil {
		n = 0
	}
	var v int64
	switch r.intn(8) {
	case 0:
		v = 0
	case 1, 2:
		v = n + 1
	case 3:
		v = n - 1
		if v < 0 {
			v = 1
		}
	case 4:
		v = 2 * n
	case 5:
		v = 4294967295 + int64(r.intn(2))
	case 6:
		v = 1<<53 - 1
	default:
		all := numbers(cmds, isNumber)
		if len(all) == 0 {
			return nil
		}
		v = all[r.intn(len(all))]
	}
	s.Set(json.Number(strconv.FormatInt(v, 10)))
	return cmds
}

// idSwap points an id of command c at another object of the stream.
func idSwap(cmds []any, c int, r *rng) []any {
	s := pick(jsontree.Slots(cmds[c]), r, isID)
	ids := numbers(cmds, isID)
	if s == nil || len(ids) == 0 {
		return nil
	}
	s.Set(json.Number(strconv.FormatInt(ids[r.intn(len(ids))], 10)))
	return cmds
}

// idFresh points an id of command c at no object at all.
func idFresh(cmds []any, c int, r *rng) []any {
	s := pick(jsontree.Slots(cmds[c]), r, isID)
	if s == nil {
		return nil
	}
	var max int64
	for _, n := range numbers(cmds, isID) {
		max = maxInt(max, n)
	}
	s.Set(json.Number(strconv.FormatInt(max+1, 10)))
	return cmds
}

// idReuse gives a create command the id of another object of the stream.
func idReuse(cmds []any, r *rng) []any {
	var creates []int
	for i, c := range cmds {
		if m, ok := c.(map[string]any); ok && strings.HasPrefix(cmdName(c), "Create") {
			if _, ok := m["id"].(json.Number); ok {
				creates = append(creates, i)
			}
		}
	}
	if len(creates) < 2 {
		return nil
	}
	a, b := creates[r.intn(len(creates))], creates[r.intn(len(creates))]
	m := jsontree.Clone(cmds[a]).(map[string]any)
	m["id"] = cmds[b].(map[string]any)["id"]
	cmds[a] = m
	return cmds
}

// enum sets a string of command c to another string seen under the same
// member name in the corpus.
func (p *pool) enum(cmds []any, c int, r *rng) []any {
	s := pick(jsontree.Slots(cmds[c]), r, func(s jsontree.Slot) bool {
		_, ok := s.Val.(string)
		return ok && s.Key != "cmd" && len(p.strings[s.Key]) > 1
	})
	if s == nil {
		return nil
	}
	choices := p.strings[s.Key]
	s.Set(choices[r.intn(len(choices))])
	return cmds
}

// dropMember removes a member of command c, at any depth; cmd itself only
// when schema is set.
func dropMember(cmds []any, c int, r *rng, schema bool) []any {
	s := pick(jsontree.Slots(cmds[c]), r, func(s jsontree.Slot) bool { return s.Drop != nil && (schema || s.Key != "cmd") })
	if s == nil {
		return nil
	}
	s.Drop()
	return cmds
}

// list shortens, repeats an entry of, or empties a list of command c.
func list(cmds []any, c int, r *rng) []any {
	s := pick(jsontree.Slots(cmds[c]), r, func(s jsontree.Slot) bool { l, ok := s.Val.([]any); return ok && len(l) > 0 })
	if s == nil {
		return nil
	}
	l := s.Val.([]any)
	k := r.intn(len(l))
	s.Set(jsontree.EditList(l, k, r.intn(jsontree.ListEdits)))
	return cmds
}

// reply reshapes a QueueSubmitReply: a readback's range moved, one dropped
// or repeated, its data cut, or the reply aimed at another submission.
func reply(cmds []any, r *rng) []any {
	var replies []int
	for i, c := range cmds {
		if cmdName(c) == "QueueSubmitReply" {
			replies = append(replies, i)
		}
	}
	if len(replies) == 0 {
		return nil
	}
	k := replies[r.intn(len(replies))]
	m := jsontree.Clone(cmds[k]).(map[string]any)
	cmds[k] = m
	rbs, _ := m["readbacks"].([]any)
	switch r.intn(4) {
	case 0:
		if n, err := strconv.ParseInt(string(asNumber(m["submission_id"])), 10, 64); err == nil {
			m["submission_id"] = json.Number(strconv.FormatInt(n+1, 10))
		}
	case 1:
		if len(rbs) > 0 {
			k := r.intn(len(rbs))
			if r.intn(2) == 0 {
				m["readbacks"] = append(append([]any{}, rbs[:k]...), rbs[k+1:]...)
			} else {
				m["readbacks"] = append(append([]any{}, rbs...), jsontree.Clone(rbs[k]))
			}
		}
	default:
		if len(rbs) == 0 {
			return nil
		}
		rb, ok := rbs[r.intn(len(rbs))].(map[string]any)
		if !ok {
			return nil
		}
		key := [...]string{"size", "offset", "buffer_id", "data"}[r.intn(4)]
		if key == "data" {
			rb["data"] = "AA=="
		} else if n, err := strconv.ParseInt(string(asNumber(rb[key])), 10, 64); err == nil {
			rb[key] = json.Number(strconv.FormatInt(n+1, 10))
		}
	}
	return cmds
}

func asNumber(v any) json.Number { n, _ := v.(json.Number); return n }

// reorder drops, repeats, moves or swaps command c.
func reorder(cmds []any, c int, r *rng) []any {
	switch r.intn(4) {
	case 0:
		return append(cmds[:c:c], cmds[c+1:]...)
	case 1:
		return append(cmds[:c+1:c+1], append([]any{jsontree.Clone(cmds[c])}, cmds[c+1:]...)...)
	case 2:
		moved := cmds[c]
		rest := append(cmds[:c:c], cmds[c+1:]...)
		d := r.intn(len(rest) + 1)
		return append(rest[:d:d], append([]any{moved}, rest[d:]...)...)
	default:
		d := r.intn(len(cmds))
		cmds[c], cmds[d] = cmds[d], cmds[c]
		return cmds
	}
}

func maxInt(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
