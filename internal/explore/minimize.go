package explore

import (
	"encoding/json"
	"strconv"

	"github.com/drp2/drp2-fixtures/internal/jsontree"
	"github.com/drp2/drp2-fixtures/model"
)

// Minimization: delta debugging over the commands, then over the members
// of each command, then over the values (ids renumbered from 1, numbers
// made 0 or 1), keeping every step that gives the same signature. It is
// deterministic and asks for at most Config.MaxTests verdicts.

// minimizer is one minimization.
type minimizer struct {
	e     *explorer
	key   string
	tests int
	// best is the smallest stream so far and its implementations' verdicts.
	best     *stream
	verdicts []model.StreamVerdict
	// kept counts the steps kept.
	kept int
	// pinned keeps the handshake of a valid stream: a fixture expecting
	// success must open with it.
	pinned int
}

func (e *explorer) minimize(st *stream, key string, answers []model.StreamVerdict) (*stream, []model.StreamVerdict, int) {
	m := &minimizer{e: e, key: key, best: st, verdicts: answers}
	if st.builtin.Outcome == string(model.Success) {
		m.pinned = 2
	}
	// Each pass can open the way for another (a value made simpler can
	// free a command), so they repeat until none changes the stream.
	for {
		before := m.tests
		kept := m.kept
		m.commands()
		m.members()
		m.values()
		if m.kept == kept || m.tests == before || m.tests >= m.e.cfg.MaxTests {
			break
		}
	}
	return m.best, m.verdicts, m.tests
}

// try judges cmds and keeps them when they give the same signature.
func (m *minimizer) try(cmds []any) bool {
	if m.tests >= m.e.cfg.MaxTests {
		return false
	}
	m.tests++
	st := &stream{index: m.best.index, name: m.best.name, kind: m.best.kind, from: m.best.from,
		version: m.best.version, caps: m.best.caps}
	st.set(cmds, m.e.pool.raw)
	verdicts := m.e.judge(st)
	key, differ := signature(st.builtin, m.e.labels, verdicts)
	if !differ || key != m.key || !opensWithHandshake(st, m.pinned) {
		return false
	}
	m.best, m.verdicts = st, verdicts
	m.kept++
	return true
}

func opensWithHandshake(st *stream, pinned int) bool {
	return pinned == 0 || len(st.cmds) >= 2 && cmdName(st.cmds[0]) == "HelloRenderer" && cmdName(st.cmds[1]) == "RendererHelloReply"
}

// commands is ddmin over the commands after the pinned ones: remove one of
// n chunks while that keeps the signature, halving the chunks when none
// can go, down to single commands.
func (m *minimizer) commands() {
	n := 2
	for {
		cmds := m.best.cmds
		free := len(cmds) - m.pinned
		if free < 1 || m.tests >= m.e.cfg.MaxTests {
			return
		}
		if n > free {
			n = free
		}
		removed := false
		for i := 0; i < n; i++ {
			lo, hi := m.pinned+free*i/n, m.pinned+free*(i+1)/n
			cand := make([]any, 0, len(cmds)-(hi-lo))
			cand = append(append(cand, cmds[:lo]...), cmds[hi:]...)
			if m.try(cand) {
				removed = true
				n = max(n-1, 2)
				break
			}
		}
		if !removed {
			if n >= free {
				return
			}
			n = min(2*n, free)
		}
	}
}

// members removes the members of each command, at any depth, one at a
// time; cmd stays.
func (m *minimizer) members() {
	for c := 0; c < len(m.best.cmds); c++ {
		for i := 0; ; {
			cmds := cloneList(m.best.cmds)
			all := jsontree.Slots(cmds[c])
			for i < len(all) && (all[i].Drop == nil || all[i].Key == "cmd") {
				i++
			}
			if i >= len(all) || m.tests >= m.e.cfg.MaxTests {
				break
			}
			all[i].Drop()
			if !m.try(cmds) {
				i++
			}
		}
	}
}

// values renumbers the ids from 1 in order of first use, then makes each
// number 0, else 1, where the signature allows.
func (m *minimizer) values() {
	cmds := cloneList(m.best.cmds)
	renumber := map[string]string{}
	var order []string
	for _, c := range cmds {
		for _, s := range jsontree.Slots(c) {
			if isID(s) {
				if _, ok := renumber[string(s.Val.(json.Number))]; !ok {
					renumber[string(s.Val.(json.Number))] = ""
					order = append(order, string(s.Val.(json.Number)))
				}
			}
		}
	}
	for i, id := range order {
		renumber[id] = strconv.Itoa(i + 1)
	}
	changed := false
	for _, c := range cmds {
		for _, s := range jsontree.Slots(c) {
			if isID(s) {
				if to := renumber[string(s.Val.(json.Number))]; to != string(s.Val.(json.Number)) {
					s.Set(json.Number(to))
					changed = true
				}
			}
		}
	}
	if changed {
		m.try(cmds)
	}
	for c := 0; c < len(m.best.cmds); c++ {
		for i := 0; ; i++ {
			cmds := cloneList(m.best.cmds)
			all := jsontree.Slots(cmds[c])
			if i >= len(all) || m.tests >= m.e.cfg.MaxTests {
				break
			}
			n, ok := all[i].Val.(json.Number)
			if !ok || isID(all[i]) {
				// Ids were renumbered above, all at once.
				continue
			}
			for _, small := range []json.Number{"0", "1"} {
				if n == small {
					break
				}
				cmds = cloneList(m.best.cmds)
				jsontree.Slots(cmds[c])[i].Set(small)
				if m.try(cmds) {
					break
				}
			}
		}
	}
}
