package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// NumberBounds reports every number the compiled command schema compares
// command numbers with (minimum, maximum and their exclusive forms, and
// the numbers of const and enum values), as sorted integers, and whether a
// number's verdict depends on nothing else: its relation (below, equal,
// above) to each of these, whether it is an integer, and which other
// numbers of the command it equals. That holds unless the schema uses
// multipleOf, a non-integer bound, a bound beyond int64 or an extension
// other than the step counter, whose count depends on the same shape.
//
// The runner keys its cache of command verdicts by that much of each
// number (see shapeKey), so that a million commands that differ only in
// their ids are judged once.
func (s *Set) NumberBounds() (bounds []int64, ok bool) {
	w := boundsWalk{seen: map[*jsonschema.Schema]bool{}, set: map[int64]bool{}, ok: true}
	w.schema(s.first.command)
	for _, b := range s.first.branches {
		w.schema(b)
	}
	if !w.ok {
		return nil, false
	}
	for b := range w.set {
		bounds = append(bounds, b)
	}
	sort.Slice(bounds, func(i, j int) bool { return bounds[i] < bounds[j] })
	return bounds, true
}

// Shape is what the verdict of the envelope schema on a value depends on
// (see EnvelopeShape): each number's relation to Numbers, each string's
// relation to Lengths (in characters) unless it is one of Strings, and
// which other numbers or strings of the value each equals.
type Shape struct {
	Numbers []int64
	Lengths []int64
	Strings map[string]bool
}

// EnvelopeShape reports the bounds the compiled envelope schema compares
// numbers and string lengths with and the strings of its const and enum
// values, and whether an envelope's verdict depends on nothing else of its
// numbers and strings than Shape says (object keys and the value's
// structure aside, which it does not abstract). That holds unless the
// schema also uses a keyword that reads a number or a string otherwise
// (multipleOf, pattern, format, the content keywords), a bound that is
// not an integer within int64, or an extension other than the step
// counter, whose count depends on the same shape.
//
// The runner keys its cache of envelope verdicts by that shape, so that
// fixtures that differ only in their names, descriptions, ids and such are
// judged once.
func (s *Set) EnvelopeShape() (Shape, bool) {
	w := boundsWalk{seen: map[*jsonschema.Schema]bool{}, set: map[int64]bool{}, ok: true,
		strict: true, lengths: map[int64]bool{}, strs: map[string]bool{}}
	w.schema(s.first.envelope)
	if !w.ok {
		return Shape{}, false
	}
	return Shape{Numbers: sorted(w.set), Lengths: sorted(w.lengths), Strings: w.strs}, true
}

func sorted(set map[int64]bool) []int64 {
	out := make([]int64, 0, len(set))
	for b := range set {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

type boundsWalk struct {
	seen map[*jsonschema.Schema]bool
	set  map[int64]bool
	ok   bool
	// strict: strings are abstracted too (EnvelopeShape), so every
	// keyword that reads a string is accounted for or refused.
	strict  bool
	lengths map[int64]bool
	strs    map[string]bool
}

func (w *boundsWalk) rat(r *big.Rat) {
	if r == nil {
		return
	}
	if !r.IsInt() || !r.Num().IsInt64() {
		w.ok = false
		return
	}
	w.set[r.Num().Int64()] = true
}

// value adds the numbers of a const or enum value.
func (w *boundsWalk) value(v any) {
	switch v := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			w.ok = false
			return
		}
		w.rat(r)
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1<<62 {
			w.ok = false
			return
		}
		w.set[int64(v)] = true
	case int, int64, int32:
		w.set[toInt64(v)] = true
	case string:
		if w.strict {
			w.strs[v] = true
		}
	case map[string]any:
		for _, x := range v {
			w.value(x)
		}
	case []any:
		for _, x := range v {
			w.value(x)
		}
	}
}

func toInt64(v any) int64 {
	switch v := v.(type) {
	case int:
		return int64(v)
	case int32:
		return int64(v)
	}
	return v.(int64)
}

func (w *boundsWalk) any(v any) {
	switch v := v.(type) {
	case *jsonschema.Schema:
		w.schema(v)
	case []*jsonschema.Schema:
		for _, s := range v {
			w.schema(s)
		}
	}
}

func (w *boundsWalk) schema(s *jsonschema.Schema) {
	if s == nil || w.seen[s] || !w.ok {
		return
	}
	w.seen[s] = true
	_, counted := s.Extensions[stepsExtension]
	if s.MultipleOf != nil || len(s.Extensions) > btoi(counted) {
		w.ok = false
		return
	}
	if w.strict && !w.strings(s) {
		w.ok = false
		return
	}
	for _, r := range []*big.Rat{s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum} {
		w.rat(r)
	}
	for _, v := range s.Constant {
		w.value(v)
	}
	for _, v := range s.Enum {
		w.value(v)
	}
	for _, sub := range []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.DynamicRef, s.Not, s.If, s.Then, s.Else,
		s.PropertyNames, s.UnevaluatedProperties, s.Items2020, s.Contains, s.UnevaluatedItems, s.ContentSchema} {
		w.schema(sub)
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, sub := range list {
			w.schema(sub)
		}
	}
	for _, sub := range s.Properties {
		w.schema(sub)
	}
	for _, sub := range s.PatternProperties {
		w.schema(sub)
	}
	for _, sub := range s.DependentSchemas {
		w.schema(sub)
	}
	for _, d := range s.Dependencies {
		w.any(d)
	}
	w.any(s.AdditionalProperties)
	w.any(s.Items)
	w.any(s.AdditionalItems)
}

// strings adds the length bounds of s, and reports false when s reads a
// string in a way a Shape does not keep.
func (w *boundsWalk) strings(s *jsonschema.Schema) bool {
	if s.Pattern != nil || s.Format != "" || s.ContentEncoding != "" || s.ContentMediaType != "" || s.ContentSchema != nil {
		return false
	}
	for _, n := range []int{s.MinLength, s.MaxLength} {
		if n != -1 {
			w.lengths[int64(n)] = true
		}
	}
	return true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
