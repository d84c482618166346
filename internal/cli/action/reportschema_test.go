package action_test

import (
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/drp2/drp2-fixtures/docs"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// reportSchema is docs/report.schema.json closed to members it does not
// describe (testkit.StrictSchema): every JSON report the action's tests
// write, the action's json-path and the command line's --json-out, is held
// to it, so that the schema published for collectors says all the action
// writes.
var reportSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return testkit.StrictSchema(docs.ReportSchema, "")
})

func validateReport(t *testing.T, name string, data []byte) {
	t.Helper()
	s, err := reportSchema()
	if err != nil {
		t.Fatalf("docs/report.schema.json: %v", err)
	}
	if err := testkit.ValidateJSON(s, data); err != nil {
		t.Errorf("%s does not validate against docs/report.schema.json, closed to members it does not describe:\n%v", name, err)
	}
}
