package jsonout

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/drp2/drp2-fixtures/docs"
	"github.com/drp2/drp2-fixtures/internal/jsonpos"
)

// reportSchema is the published schema of the report, compiled once.
var reportSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("report.schema.json", bytes.NewReader(docs.ReportSchema)); err != nil {
		return nil, err
	}
	return c.Compile("report.schema.json")
})

// checkSchema refuses a report the published schema rejects: the reader
// alone fills what is missing with zeros and takes any word for a class or
// an outcome, and merge then wrote a report that failed its own schema.
// The error names the place, a JSON pointer, and what is wrong there.
func checkSchema(data []byte) error {
	s, err := reportSchema()
	if err != nil {
		return fmt.Errorf("the report schema does not compile: %v", err)
	}
	// Numbers as they are written: a float would round a large count.
	var doc any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return fmt.Errorf("not a drp2-fixtures JSON report: %v", err)
	}
	if at, n, found := unweighableNumber(doc, ""); found {
		if len(n) > 40 {
			n = n[:40] + "…"
		}
		return fmt.Errorf("not a drp2-fixtures JSON report: at %s: the number %s has an exponent of more than %d digits, which no report writes and the schema check cannot weigh",
			cmp.Or(at, "/"), n, maxExponentDigits)
	}
	err = s.Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	// The first leaf is the place the schema itself points at.
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	where := ve.InstanceLocation
	if where == "" {
		where = "/"
	}
	return fmt.Errorf("not a drp2-fixtures JSON report: at %s: %s (docs/report.schema.json)", where, ve.Message)
}

// maxExponentDigits bounds the exponent of a number the schema library is
// given. It weighs each number as an exact rational: 1e-9999999 made it
// dereference the nil rational big.Rat gives up with, and a report could
// end the process that reads it; a few more digits would have it compute
// for minutes. The fast check leaves such numbers to it at the same bound.
const maxExponentDigits = 4

// unweighableNumber finds the first number (members in the order of
// their names) whose exponent has more than maxExponentDigits digits,
// and where it is, as a JSON pointer below at.
func unweighableNumber(v any, at string) (string, string, bool) {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if e := strings.IndexAny(s, "eE"); e >= 0 && len(strings.TrimLeft(s[e+1:], "+-")) > maxExponentDigits {
			return at, s, true
		}
	case []any:
		for i, x := range v {
			if at, n, found := unweighableNumber(x, at+"/"+strconv.Itoa(i)); found {
				return at, n, true
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if at, n, found := unweighableNumber(v[k], at+"/"+jsonpos.EscapeToken(k)); found {
				return at, n, true
			}
		}
	}
	return "", "", false
}
