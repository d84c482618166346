// Package jsontree holds JSON values as generic trees: objects as
// map[string]any, arrays as []any, numbers as json.Number (exactly as
// written), so that a mutation can reach any value and an unchanged value
// keeps its text. The explorer's mutations, the validator's mutation tests
// and the manifest's expected blocks share it. It imports nothing from the
// module.
package jsontree

import (
	"bytes"
	"encoding/json"
	"sort"
)

// DecodeTree decodes one JSON value, numbers kept as written.
func DecodeTree(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Clone copies a tree deeply.
func Clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, c := range x {
			m[k] = Clone(c)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, c := range x {
			l[i] = Clone(c)
		}
		return l
	}
	return v
}

// Slot is one value inside a tree, with a way to replace or remove it.
type Slot struct {
	// Key is the member name of the value, or of the list holding it.
	Key string
	Val any
	Set func(any)
	// Drop removes the value from its object; nil for a list entry.
	Drop func()
}

// Slots lists the values below v, depth first, object members in sorted
// order, so that the same tree always gives the same list.
func Slots(v any) []Slot {
	var out []Slot
	slots(v, "", &out)
	return out
}

func slots(v any, key string, out *[]Slot) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range SortedKeys(x) {
			*out = append(*out, Slot{Key: k, Val: x[k], Set: func(n any) { x[k] = n }, Drop: func() { delete(x, k) }})
			slots(x[k], k, out)
		}
	case []any:
		for i := range x {
			*out = append(*out, Slot{Key: key, Val: x[i], Set: func(n any) { x[i] = n }})
			slots(x[i], key, out)
		}
	}
}

// SortedKeys are an object's member names in order.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Strings are the short strings of trees by the member name they stand
// under (a list's entries under the list's name): the values an enum
// mutation draws from, so that it stays plausible. Free text and error
// codes (data, label, code) are left out.
type Strings map[string][]string

// Add collects the strings of tree v.
func (s Strings) Add(v any) { s.add(v, "") }

func (s Strings) add(v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			s.add(c, k)
		}
	case []any:
		for _, c := range x {
			s.add(c, key)
		}
	case string:
		if len(x) <= 32 && key != "data" && key != "label" && key != "code" {
			s[key] = append(s[key], x)
		}
	}
}

// Sort orders each name's strings and drops repeats: call it once all the
// trees are added.
func (s Strings) Sort() {
	for k, v := range s {
		sort.Strings(v)
		out := v[:0]
		for i, x := range v {
			if i == 0 || x != v[i-1] {
				out = append(out, x)
			}
		}
		s[k] = out
	}
}

// The edits EditList makes to a list.
const (
	DropEntry = iota
	RepeatEntry
	EmptyList
	// ListEdits is how many there are.
	ListEdits
)

// EditList returns a new list: l without its entry k (DropEntry), with a
// copy of it after the last (RepeatEntry), or empty. l is not changed.
func EditList(l []any, k, edit int) []any {
	switch edit {
	case DropEntry:
		return append(append([]any{}, l[:k]...), l[k+1:]...)
	case RepeatEntry:
		return append(append([]any{}, l...), Clone(l[k]))
	default:
		return []any{}
	}
}
