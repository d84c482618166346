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

type boundsWalk struct {
	seen map[*jsonschema.Schema]bool
	set  map[int64]bool
	ok   bool
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

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
