package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// StrictSchema compiles a JSON Schema (2020-12) with every object schema
// that does not say which other members it allows closed to them
// (additionalProperties: false). The published report schema leaves its
// objects open, so that a reader of version 1.1 takes a report of 1.2; a
// report validated against the strict copy fails on any member the schema
// does not describe, which is how the tests keep the schema complete.
// pointer, when not empty, compiles the subschema there ("#/$defs/x").
func StrictSchema(schema []byte, pointer string) (*jsonschema.Schema, error) {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, err
	}
	closeObjects(doc)
	strict, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("strict.schema.json", bytes.NewReader(strict)); err != nil {
		return nil, err
	}
	return c.Compile("strict.schema.json" + pointer)
}

// closeObjects adds additionalProperties: false to every object schema in
// s and its subschemas that lacks the keyword. An object schema is one
// that names properties or has the type object; {} (anything) stays open.
func closeObjects(s any) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if _, set := m["additionalProperties"]; !set && isObjectSchema(m) {
		m["additionalProperties"] = false
	}
	for k, v := range m {
		switch k {
		case "properties", "$defs", "patternProperties":
			if sub, ok := v.(map[string]any); ok {
				for _, x := range sub {
					closeObjects(x)
				}
			}
		case "items", "additionalProperties", "not", "if", "then", "else", "contains":
			closeObjects(v)
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if list, ok := v.([]any); ok {
				for _, x := range list {
					closeObjects(x)
				}
			}
		}
	}
}

func isObjectSchema(m map[string]any) bool {
	if _, ok := m["properties"]; ok {
		return true
	}
	switch t := m["type"].(type) {
	case string:
		return t == "object"
	case []any:
		for _, x := range t {
			if x == "object" {
				return true
			}
		}
	}
	return false
}

// ValidateJSON validates a document against a compiled schema, reading
// numbers as written (a float would round a large count). The error
// lists every place that fails, with its JSON pointer.
func ValidateJSON(s *jsonschema.Schema, data []byte) error {
	var doc any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return err
	}
	err := s.Validate(doc)
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err
	}
	var leaves []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, fmt.Sprintf("at %q: %s", e.InstanceLocation, e.Message))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(leaves)
	return fmt.Errorf("%s", strings.Join(leaves, "\n"))
}

// UndescribedMembers lists the members of the schema's properties, at any
// depth, that have no description, as JSON pointers: a schema published
// for collectors says what each member means.
func UndescribedMembers(schema []byte) ([]string, error) {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, err
	}
	var out []string
	var walk func(at string, s any)
	walk = func(at string, s any) {
		switch v := s.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "properties" {
					if props, ok := x.(map[string]any); ok {
						for name, p := range props {
							if pm, ok := p.(map[string]any); !ok || pm["description"] == nil {
								out = append(out, at+"/properties/"+name)
							}
						}
					}
				}
				if k != "enum" && k != "const" && k != "examples" && k != "default" {
					walk(at+"/"+k, x)
				}
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s/%d", at, i), x)
			}
		}
	}
	walk("#", doc)
	sort.Strings(out)
	return out, nil
}

// MemberPaths adds the members a JSON document holds to seen, as JSON
// pointers with * for an array's index, each prefixed with prefix: what a
// test asks of the documents it wrote, to know that a mode was reached.
// The members of maps keyed by a fixture's path (level2, readbacks,
// fixture_readbacks) are left out.
func MemberPaths(data []byte, prefix string, seen map[string]bool) error {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return err
	}
	var walk func(at string, v any)
	walk = func(at string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				seen[at+"/"+k] = true
				if k != "level2" && k != "readbacks" && k != "fixture_readbacks" {
					walk(at+"/"+k, x)
				}
			}
		case []any:
			for _, x := range v {
				walk(at+"/*", x)
			}
		}
	}
	walk(prefix, doc)
	return nil
}
