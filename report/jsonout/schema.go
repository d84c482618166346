package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/drp2/drp2-fixtures/docs"
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
