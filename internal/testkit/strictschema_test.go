package testkit

import (
	"strings"
	"testing"
)

// TestStrictSchema: the strict copy refuses a member the schema does not
// describe at any depth (through a $ref, in a list, in an object that may
// be null), and leaves open what the schema leaves open on purpose (a map
// of additionalProperties, a member of any value).
func TestStrictSchema(t *testing.T) {
	schema := []byte(`{
	  "type": "object",
	  "properties": {
	    "a": {"$ref": "#/$defs/a"},
	    "list": {"type": "array", "items": {"type": ["object", "null"], "properties": {"x": {"type": "integer"}}}},
	    "map": {"type": "object", "additionalProperties": {"type": "boolean"}},
	    "any": {}
	  },
	  "$defs": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}
	}`)
	s, err := StrictSchema(schema, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateJSON(s, []byte(`{"a": {"b": "x"}, "list": [{"x": 1}, null], "map": {"k": true}, "any": {"free": [1]}}`)); err != nil {
		t.Errorf("a described document: %v", err)
	}
	for doc, place := range map[string]string{
		`{"extra": 1}`:         `at "": additionalProperties 'extra' not allowed`,
		`{"a": {"c": 1}}`:      `at "/a": additionalProperties 'c' not allowed`,
		`{"list": [{"y": 1}]}`: `at "/list/0": additionalProperties 'y' not allowed`,
		`{"map": {"k": "s"}}`:  `at "/map/k"`,
	} {
		err := ValidateJSON(s, []byte(doc))
		if err == nil || !strings.Contains(err.Error(), place) {
			t.Errorf("%s: %v, want %s", doc, err, place)
		}
	}
	a, err := StrictSchema(schema, "#/$defs/a")
	if err != nil {
		t.Fatal(err)
	}
	if ValidateJSON(a, []byte(`{"b": "x"}`)) != nil || ValidateJSON(a, []byte(`{"b": "x", "c": 1}`)) == nil {
		t.Error("the subschema is not the definition's, closed")
	}
	undescribed, err := UndescribedMembers([]byte(`{"properties": {"a": {"description": "A.", "properties": {"b": {}}}}, "$defs": {"d": {"properties": {"e": {"description": "E."}, "f": {}}}}}`))
	if err != nil || strings.Join(undescribed, " ") != "#/$defs/d/properties/f #/properties/a/properties/b" {
		t.Errorf("undescribed %v, %v", undescribed, err)
	}
}
