package jsonout

import "github.com/drp2/drp2-fixtures/model"

// The model is data without wire names; these are the report's names for
// the small model values it writes and reads back. Each is declared field
// for field as its model type, so that a conversion (Span(s), model.Span(w))
// copies it either way, and stops compiling the day the two differ: a field
// the model gains needs its JSON name here before it can reach the report.

// SchemaSource is a schema a run used: its path (or "embedded"), the
// SHA-256 of its bytes and of its closure, and the files of the closure.
// A report written before closures has neither of the last two, and is
// read as it was.
type SchemaSource struct {
	Source  string       `json:"source"`
	SHA256  string       `json:"sha256"`
	Closure string       `json:"closure_sha256,omitempty"`
	Files   []SchemaFile `json:"files,omitempty"`
}

// SchemaFile is one file of a schema's closure.
type SchemaFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

func toSchema(s model.SchemaSource) SchemaSource {
	return SchemaSource{Source: s.Source, SHA256: s.SHA256, Closure: s.Closure,
		Files: convert(s.Files, func(f model.SchemaFile) SchemaFile { return SchemaFile(f) })}
}

func fromSchema(s SchemaSource) model.SchemaSource {
	return model.SchemaSource{Source: s.Source, SHA256: s.SHA256, Closure: s.Closure,
		Files: convert(s.Files, func(f SchemaFile) model.SchemaFile { return model.SchemaFile(f) })}
}

// Span is a 1-based region of a fixture file.
type Span struct {
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"end_line"`
	EndColumn int `json:"end_column"`
}

// Diagnostic is secondary detail attached to a result.
type Diagnostic struct {
	Source  string `json:"source"`
	Message string `json:"message"`
}

// Digest holds the SHA-256 sums of a fixture file and of its commands and
// expected block.
type Digest struct {
	File     string `json:"file"`
	Commands string `json:"commands,omitempty"`
	Expected string `json:"expected,omitempty"`
}

// Finding is a warning about the corpus.
type Finding struct {
	Kind    model.FindingKind `json:"kind"`
	Path    string            `json:"path"`
	Message string            `json:"message"`
}

// convert maps a slice element by element. A nil slice stays nil, so that
// a member the report leaves out (omitempty) or that reads as null comes
// back as it was.
func convert[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i := range in {
		out[i] = f(in[i])
	}
	return out
}

func fromFinding(f Finding) model.Finding          { return model.Finding(f) }
func toDiagnostic(d model.Diagnostic) Diagnostic   { return Diagnostic(d) }
func fromDiagnostic(d Diagnostic) model.Diagnostic { return model.Diagnostic(d) }

// schemaOrNil is a base schema for the comparison: absent when the base
// named none.
func schemaOrNil(s model.SchemaSource) *SchemaSource {
	if s.Source == "" && s.SHA256 == "" && s.Closure == "" && len(s.Files) == 0 {
		return nil
	}
	w := toSchema(s)
	return &w
}
