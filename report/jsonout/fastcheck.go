package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strings"
	"sync"

	"github.com/drp2/drp2-fixtures/docs"
)

// The published schema, checked in Go over the report's bytes. Decoding a
// report into `any` and validating it with jsonschema cost two thirds of
// reading it; this check walks the bytes once, holding nothing of them,
// and vouches for a report only when the schema would accept it.
// Anything it refuses goes to jsonschema, whose error names the place.

// Kinds of JSON value, as the schema's "type" names them; an integer is
// a number of no fractional part.
const (
	kindNull uint8 = 1 << iota
	kindBoolean
	kindInteger
	kindNumber
	kindString
	kindArray
	kindObject
)

var kindNames = map[string]uint8{
	"null": kindNull, "boolean": kindBoolean, "integer": kindInteger, "number": kindNumber | kindInteger,
	"string": kindString, "array": kindArray, "object": kindObject,
}

// checkNode is one subschema, compiled. The zero node accepts anything.
type checkNode struct {
	never bool
	// kinds are those its "type" allows; 0 allows every kind.
	kinds uint8
	// props index the named members, whose nodes are in propNodes; a
	// required member's bit is set in required.
	props     map[string]int
	propNodes []*checkNode
	required  uint64
	// additional checks the members props does not name; nil: any.
	additional *checkNode
	items      *checkNode
	enum       []string
	pattern    *regexp.Regexp
	minimum    *big.Rat
	maximum    *big.Rat
	minLength  int
	// intMin and intMax are the bounds an integer meets (minimum rounded
	// up, maximum down), when both fit an int64: intBounds.
	intMin, intMax int64
	intBounds      bool
	// boundsWhole: minimum and maximum, where given, are whole numbers,
	// so that intMin and intMax are the bounds themselves.
	boundsWhole bool
	// open: no constraint at all, so that the walk only skips the value.
	open bool
	// spanRole marks the objects whose "results" member decodeChecked
	// reads itself.
	spanRole spanRole
}

// spanRole is what an object is to decodeChecked: the report, whose
// "results" and "implementations" it reads, or an implementation's
// record, whose "results" it reads.
type spanRole uint8

const (
	reportObject spanRole = 1 + iota
	implementationObject
)

// mistakable: encoding/json would decode a member so named, other than
// the one named exactly, as the results or implementations.
func (r spanRole) mistakable(key []byte) bool {
	if bytes.EqualFold(key, []byte("results")) {
		return true
	}
	return r == reportObject && bytes.EqualFold(key, []byte("implementations")) && string(key) != "implementations"
}

// annotations are keywords that constrain nothing.
var annotations = map[string]bool{"description": true, "title": true, "$schema": true, "$id": true, "$comment": true, "$defs": true}

// reportCheck is the published schema compiled for checkReport, or the
// error that says which keyword it cannot check (then every report goes to
// jsonschema).
var reportCheck = sync.OnceValues(func() (*checkNode, error) {
	root, err := compileCheck(docs.ReportSchema)
	if err != nil {
		return nil, err
	}
	root.spanRole = reportObject
	if i, ok := root.props["implementations"]; ok && root.propNodes[i].items != nil {
		root.propNodes[i].items.spanRole = implementationObject
	} else {
		return nil, errors.New("the schema's implementations are not an array of records")
	}
	return root, nil
})

type checkCompiler struct {
	defs map[string]*checkNode
	raw  map[string]any
}

// compileCheck compiles a schema that uses only the keywords the report
// schema does; any other keyword is an error, not a constraint ignored.
func compileCheck(schema []byte) (*checkNode, error) {
	var root map[string]any
	d := json.NewDecoder(bytes.NewReader(schema))
	d.UseNumber()
	if err := d.Decode(&root); err != nil {
		return nil, err
	}
	c := &checkCompiler{defs: map[string]*checkNode{}}
	c.raw, _ = root["$defs"].(map[string]any)
	for name := range c.raw {
		c.defs[name] = &checkNode{}
	}
	for name, def := range c.raw {
		n, err := c.node(def)
		if err != nil {
			return nil, fmt.Errorf("$defs/%s: %v", name, err)
		}
		*c.defs[name] = *n
	}
	return c.node(root)
}

func (c *checkCompiler) node(v any) (*checkNode, error) {
	switch v := v.(type) {
	case bool:
		return &checkNode{never: !v, open: v}, nil
	case map[string]any:
		if ref, ok := v["$ref"]; ok {
			return c.ref(v, ref)
		}
		n := &checkNode{minLength: -1}
		open := true
		for key, val := range v {
			if annotations[key] {
				continue
			}
			open = false
			if err := c.keyword(n, key, val); err != nil {
				return nil, fmt.Errorf("%s: %v", key, err)
			}
		}
		if err := c.requiredMembers(n, v["required"]); err != nil {
			return nil, err
		}
		n.open = open
		n.intMin, n.intMax, n.intBounds = integerBounds(n.minimum, n.maximum)
		n.boundsWhole = (n.minimum == nil || n.minimum.IsInt()) && (n.maximum == nil || n.maximum.IsInt())
		return n, nil
	}
	return nil, fmt.Errorf("a schema is an object or a boolean, not %T", v)
}

// ref is a $ref to one of the schema's own $defs, with nothing beside it
// but annotations.
func (c *checkCompiler) ref(v map[string]any, ref any) (*checkNode, error) {
	for key := range v {
		if key != "$ref" && !annotations[key] {
			return nil, fmt.Errorf("%q beside $ref is not checked", key)
		}
	}
	s, _ := ref.(string)
	n, ok := c.defs[strings.TrimPrefix(s, "#/$defs/")]
	if !ok || !strings.HasPrefix(s, "#/$defs/") {
		return nil, fmt.Errorf("$ref %q is not one of the schema's $defs", s)
	}
	return n, nil
}

func (c *checkCompiler) keyword(n *checkNode, key string, val any) error {
	var err error
	switch key {
	case "type":
		n.kinds, err = kinds(val)
	case "properties":
		err = c.properties(n, val)
	case "required":
		// After the properties: requiredMembers.
	case "additionalProperties":
		n.additional, err = c.node(val)
	case "items":
		n.items, err = c.node(val)
	case "enum":
		n.enum, err = stringList(val)
	case "pattern":
		s, _ := val.(string)
		n.pattern, err = regexp.Compile(s)
	case "minimum":
		n.minimum, err = rational(val)
	case "maximum":
		n.maximum, err = rational(val)
	case "minLength":
		r, rerr := rational(val)
		if rerr != nil || !r.IsInt() || !r.Num().IsInt64() {
			return fmt.Errorf("%v is not a length", val)
		}
		n.minLength = int(r.Num().Int64())
	default:
		return fmt.Errorf("the keyword is not checked")
	}
	return err
}

func (c *checkCompiler) properties(n *checkNode, val any) error {
	props, ok := val.(map[string]any)
	if !ok {
		return fmt.Errorf("not an object")
	}
	n.props = map[string]int{}
	for name, p := range props {
		pn, err := c.node(p)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		n.props[name] = len(n.propNodes)
		n.propNodes = append(n.propNodes, pn)
	}
	return nil
}

// requiredMembers sets the bits of the required members; one the
// properties do not name is checked by additionalProperties, as any
// other member would be.
func (c *checkCompiler) requiredMembers(n *checkNode, val any) error {
	if val == nil {
		return nil
	}
	names, err := stringList(val)
	if err != nil {
		return fmt.Errorf("required: %v", err)
	}
	for _, name := range names {
		i, ok := n.props[name]
		if !ok {
			if n.props == nil {
				n.props = map[string]int{}
			}
			i = len(n.propNodes)
			n.props[name] = i
			n.propNodes = append(n.propNodes, n.additional)
		}
		if i >= 64 {
			return fmt.Errorf("more than 64 members")
		}
		n.required |= 1 << i
	}
	if len(n.propNodes) > 64 {
		return fmt.Errorf("more than 64 members")
	}
	return nil
}

func kinds(val any) (uint8, error) {
	names, ok := []string{}, false
	if s, isString := val.(string); isString {
		names, ok = []string{s}, true
	} else if list, err := stringList(val); err == nil {
		names, ok = list, true
	}
	var k uint8
	for _, name := range names {
		bit, known := kindNames[name]
		if !known {
			ok = false
		}
		k |= bit
	}
	if !ok || k == 0 {
		return 0, fmt.Errorf("%v is not a list of types", val)
	}
	return k, nil
}

// stringList is a list of strings, the only enum the walk compares.
func stringList(val any) ([]string, error) {
	list, ok := val.([]any)
	if !ok {
		return nil, fmt.Errorf("not a list")
	}
	out := make([]string, 0, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%v is not a string", v)
		}
		out = append(out, s)
	}
	return out, nil
}

func rational(val any) (*big.Rat, error) {
	n, ok := val.(json.Number)
	if !ok {
		return nil, fmt.Errorf("%v is not a number", val)
	}
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return nil, fmt.Errorf("%v is not a number", val)
	}
	return r, nil
}

// integerBounds are the least and the greatest int64 within the bounds.
func integerBounds(minimum, maximum *big.Rat) (lo, hi int64, ok bool) {
	lo, hi, ok = math.MinInt64, math.MaxInt64, true
	if minimum != nil {
		q, r := new(big.Int).QuoRem(minimum.Num(), minimum.Denom(), new(big.Int))
		if r.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
		lo, ok = q.Int64(), q.IsInt64()
	}
	if maximum != nil {
		q, r := new(big.Int).QuoRem(maximum.Num(), maximum.Denom(), new(big.Int))
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		}
		hi, ok = q.Int64(), ok && q.IsInt64()
	}
	return lo, hi, ok
}
