package testkit

import (
	"fmt"
	"strings"
)

// ExponentialSchema is a schema that the schema library evaluates 2^depth
// times for the member prop of an object (for the whole value when prop is
// ""), and that accepts everything else: at depth 40 an evaluation never
// ends without a budget.
func ExponentialSchema(prop string, depth int) []byte {
	var b strings.Builder
	b.WriteString(`{"$schema":"https://json-schema.org/draft/2020-12/schema",`)
	if prop == "" {
		b.WriteString(`"$ref":"#/$defs/l0",`)
	} else {
		fmt.Fprintf(&b, `"properties":{%q:{"$ref":"#/$defs/l0"}},`, prop)
	}
	b.WriteString(`"$defs":{`)
	for k := 0; k < depth; k++ {
		fmt.Fprintf(&b, `"l%d":{"anyOf":[{"$ref":"#/$defs/l%d"},{"$ref":"#/$defs/l%d"}]},`, k, k+1, k+1)
	}
	fmt.Fprintf(&b, `"l%d":false}}`, depth)
	return []byte(b.String())
}
