package schema

import (
	"encoding/json"
	"fmt"
	"regexp/syntax"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The work budget of one validation.
//
// The schema library evaluates a subschema once for every path that
// reaches it: a schema that names one definition twice at each of D levels
// (a chain of anyOf of two $ref, a kilobyte of JSON) is evaluated 2^D
// times, and at D = 20 a single fixture took more than ten minutes and
// gigabytes. A pull request writes the schemas beside its corpus, so every
// validation is given a budget of steps, counted, never timed, and stopped
// with an *ExhaustedError when it runs out: the verdict is the same on
// every machine.
//
// A step is one unit of the library's applicator work. Each schema object
// evaluated against a value costs 1, plus one for each subschema it
// applies to that value in place ($ref, allOf, anyOf, oneOf, not, if, then,
// else, dependentSchemas), plus one for each member of the value for each
// keyword that applies a subschema to members (properties, items...). The
// cost is charged when the library calls the object's extension, after its
// subschemas ran; a subschema the library ends early (a type that does not
// match, a boolean schema) is paid for by the object that applied it. The
// total is a sum over the evaluations, which does not depend on the order
// of the library's map iterations, so a validation exceeds its budget on
// one run exactly when it does on any other.
const (
	// BaseSteps is the budget of a validation of any value, and
	// StepsPerValue is added for each JSON value validated. The upstream
	// and embedded schemas spend at most 1,783 steps on one command (the
	// whole command schema's oneOf, for a cmd no branch names) and 289 on
	// one fixture envelope, at most 5.2 steps per value of an envelope:
	// TestBudgetMargin holds every validation of both corpora to a quarter
	// of its budget. A failing evaluation of the exponential schema above
	// costs about 36 microseconds a step (the library builds an error at
	// each), so a validation that spends this budget ends in about half a
	// second.
	BaseSteps     = 1 << 13
	StepsPerValue = 32
)

// ExhaustedError is a validation that ran out of its budget of steps.
type ExhaustedError struct{ Steps int64 }

func (e *ExhaustedError) Error() string {
	return fmt.Sprintf("schema evaluation exceeded its budget of %d steps", e.Steps)
}

// Budget is the number of steps a validation of v is given.
func Budget(v any) int64 { return BaseSteps + StepsPerValue*values(v) }

// values counts the JSON values of a decoded document.
func values(v any) int64 {
	n := int64(1)
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			n += values(x)
		}
	case []any:
		for _, x := range v {
			n += values(x)
		}
	}
	return n
}

// meter counts the steps of the one validation that holds its evaluator.
type meter struct {
	left int64
	// spent is the steps counted so far; tests read it to measure how far
	// real schemas stay below the budget.
	spent int64
}

// exhausted is the panic that ends a validation out of budget; validate
// recovers it, and nothing else panics with it.
type exhausted struct{}

func (m *meter) charge(n int64) {
	m.spent += n
	m.left -= n
	if m.left < 0 {
		panic(exhausted{})
	}
}

// stepCounter is the extension, compiled for every schema object, that
// counts the steps; it adds no keyword.
type stepCounter struct{ m *meter }

func (c stepCounter) Compile(_ jsonschema.CompilerContext, obj map[string]any) (jsonschema.ExtSchema, error) {
	cost := step{m: c.m, inPlace: 1}
	for _, k := range []string{"$ref", "$dynamicRef", "$recursiveRef", "not", "if", "then", "else"} {
		if _, ok := obj[k]; ok {
			cost.inPlace++
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := obj[k].([]any)
		cost.inPlace += int64(len(list))
	}
	for _, k := range []string{"dependentSchemas", "dependencies"} {
		deps, _ := obj[k].(map[string]any)
		cost.inPlace += int64(len(deps))
	}
	// Each member of an object matches at most one of properties, and
	// each item at most one of prefixItems (or items as a list).
	for _, k := range []string{"properties", "additionalProperties", "propertyNames", "unevaluatedProperties",
		"items", "additionalItems", "prefixItems", "contains", "unevaluatedItems"} {
		if _, ok := obj[k]; ok {
			cost.perMember++
		}
	}
	patterns, _ := obj["patternProperties"].(map[string]any)
	cost.perMember += int64(len(patterns))
	for p := range patterns {
		cost.keyPatterns += patternSize(p)
	}
	if p, ok := obj["pattern"].(string); ok {
		cost.pattern = patternSize(p)
	}
	// const and enum compare the value with each of their values; the
	// library parses both numbers of a comparison afresh each time.
	if v, ok := obj["const"]; ok {
		cost.comparisons.add(v)
	}
	if list, ok := obj["enum"].([]any); ok {
		for _, v := range list {
			cost.comparisons.add(v)
		}
	}
	return cost, nil
}

// Units of the work a keyword does on one value, beyond its step.
const (
	// UnitsPerStep is what one step of comparisons or pattern matching
	// buys: the library spends about as long on it as on one subschema.
	UnitsPerStep = 1024
	// A number compared costs as much as numberUnits bytes of other
	// values, plus one unit a digit: the library formats and parses both
	// numbers into fractions at each comparison.
	numberUnits = 64
)

// patternSize is about the number of instructions of the program the
// regular expression p compiles to, counted on its syntax tree without
// compiling it: a match reads each byte of its input once with each live
// instruction, so its work is at most the bytes read times this. An
// expression that does not parse costs nothing here, because the schema
// then does not compile either.
func patternSize(p string) int64 {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return 0
	}
	return instructions(re)
}

// instructions is an upper bound of the instructions re compiles to,
// saturating far above any budget.
func instructions(re *syntax.Regexp) int64 {
	const most = 1 << 40
	n := int64(1)
	switch re.Op {
	case syntax.OpLiteral:
		n = int64(len(re.Rune))
	case syntax.OpConcat, syntax.OpAlternate, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpCapture:
		n = 2
		for _, sub := range re.Sub {
			n = min(most, n+1+instructions(sub))
		}
	case syntax.OpRepeat:
		times := int64(re.Max)
		if re.Max == -1 {
			times = int64(re.Min) + 1
		}
		n = min(most, 1+max(times, 1)*instructions(re.Sub[0]))
	}
	return n
}

// comparisons is the work of comparing a value with the values of a const
// or enum: at most the size of each of theirs, since a comparison stops
// at the first difference and never reads past the smaller of the two,
// and for each number the work of parsing the value's own number too.
type comparisons struct {
	units   int64 // bytes, members and numbers of the schema's values
	numbers int64 // numbers among them, each compared with the value's
}

func (c *comparisons) add(v any) {
	c.units++
	switch v := v.(type) {
	case string:
		c.units += int64(len(v))
	case json.Number:
		c.units += numberUnits + int64(len(v))
		c.numbers++
	case float64, int, int64, int32:
		c.units += numberUnits
		c.numbers++
	case map[string]any:
		for k, x := range v {
			c.units += int64(len(k))
			c.add(x)
		}
	case []any:
		for _, x := range v {
			c.add(x)
		}
	}
}

// of is the units of comparing v with every value of c.
func (c comparisons) of(v any) int64 {
	if c.units == 0 {
		return 0
	}
	if n, ok := v.(json.Number); ok {
		return c.units + c.numbers*int64(len(n))
	}
	return c.units
}

// step is the cost of evaluating one schema object.
//
// Beyond its steps, an object pays for the work of its keywords that grows
// with the size of the value or of the schema rather than with the number
// of subschemas: comparing the value with const and enum, and matching a
// string with pattern or the names of an object's members with
// patternProperties (in units, UnitsPerStep to a step, rounded up).
type step struct {
	m         *meter
	inPlace   int64 // 1 for the object, plus the subschemas it applies in place
	perMember int64 // subschemas applied to each member of the value

	comparisons comparisons
	pattern     int64 // instructions of pattern, matched against a string
	keyPatterns int64 // instructions of patternProperties, against each name
}

func (s step) Validate(_ jsonschema.ValidationContext, v any) error {
	n := s.inPlace
	units := s.comparisons.of(v)
	switch v := v.(type) {
	case map[string]any:
		n += s.perMember * int64(len(v))
		if s.keyPatterns > 0 {
			for k := range v {
				units += (int64(len(k)) + 1) * s.keyPatterns
			}
		}
	case []any:
		n += s.perMember * int64(len(v))
	case string:
		units += (int64(len(v)) + 1) * s.pattern
	}
	s.m.charge(n + (units+UnitsPerStep-1)/UnitsPerStep)
	return nil
}

// evaluator is one compiled copy of a Set's schemas with its meter. The
// library gives an extension no way to tell one validation from another,
// so a validation holds an evaluator of its own, taken from the Set's pool,
// and its meter counts that validation alone.
type evaluator struct {
	meter    *meter
	envelope *jsonschema.Schema
	command  *jsonschema.Schema
	branches map[string]*jsonschema.Schema
}

// validate validates v against sch, one of e's schemas, within budget.
func (e *evaluator) validate(sch *jsonschema.Schema, v any) (err error) {
	budget := Budget(v)
	*e.meter = meter{left: budget}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(exhausted); !ok {
				panic(p)
			}
			err = &ExhaustedError{Steps: budget}
		}
	}()
	return sch.Validate(v)
}

// pool lends evaluators. Validation is all processor work, so there are
// at most max copies, the number of processors: more would add memory and
// compilation, not speed. A copy costs a whole compilation (about 45 ms
// of processor time for the upstream schemas), more than a small corpus
// spends validating, so a validation that finds every copy in use waits
// for one to come back, and another copy is compiled only once the waits
// of the run have added up to what the first compilation took (the
// ski-rental rule: never more than twice the better of the two choices).
// Every copy is compiled from the same bytes and gives the same verdicts,
// so which copy a validation gets, and when copies are made, changes its
// speed only.
type pool struct {
	free  chan *evaluator
	mu    sync.Mutex
	made  int
	build func() (*evaluator, error)
	// cost is what the first compilation took; waited, the time
	// validations have spent waiting for a copy so far.
	cost, waited time.Duration
}

func newPool(first *evaluator, max int, cost time.Duration, build func() (*evaluator, error)) *pool {
	p := &pool{free: make(chan *evaluator, max), made: 1, build: build, cost: cost}
	p.free <- first
	return p
}

func (p *pool) get() (*evaluator, error) {
	select {
	case e := <-p.free:
		return e, nil
	default:
	}
	for {
		p.mu.Lock()
		if p.made == cap(p.free) {
			p.mu.Unlock()
			return <-p.free, nil
		}
		wait := p.cost - p.waited
		if wait <= 0 {
			p.made++
			p.mu.Unlock()
			return p.another()
		}
		p.mu.Unlock()
		start := time.Now()
		timer := time.NewTimer(wait)
		select {
		case e := <-p.free:
			timer.Stop()
			p.wasted(time.Since(start))
			return e, nil
		case <-timer.C:
			p.wasted(time.Since(start))
		}
	}
}

// wasted adds d to the time validations have waited.
func (p *pool) wasted(d time.Duration) {
	p.mu.Lock()
	p.waited += d
	p.mu.Unlock()
}

// another compiles a copy, made already counting it.
func (p *pool) another() (*evaluator, error) {
	e, err := p.build()
	if err != nil {
		p.mu.Lock()
		p.made--
		p.mu.Unlock()
		return nil, err
	}
	return e, nil
}

func (p *pool) put(e *evaluator) { p.free <- e }

// stepsExtension is the name the step counter is registered under.
const stepsExtension = "drp2-steps"

// ValidateEnvelope validates a decoded fixture against the fixture schema,
// within the budget: an *ExhaustedError when it ran out, else the
// library's verdict.
func (s *Set) ValidateEnvelope(v any) error {
	return s.with(func(e *evaluator) error { return e.validate(e.envelope, v) })
}

// ValidateCommand validates a decoded command against the whole command
// schema, within the budget.
func (s *Set) ValidateCommand(v any) error {
	return s.with(func(e *evaluator) error { return e.validate(e.command, v) })
}

// ValidateBranch validates a decoded command against the branch of the
// command schema that cmd names, within the budget; ok is false, and
// nothing validated, when no branch has that cmd.
func (s *Set) ValidateBranch(cmd string, v any) (ok bool, err error) {
	if s.first.branches[cmd] == nil {
		return false, nil
	}
	return true, s.with(func(e *evaluator) error { return e.validate(e.branches[cmd], v) })
}

// Branches is the number of commands that have a branch of their own.
func (s *Set) Branches() int { return len(s.first.branches) }

func (s *Set) with(f func(*evaluator) error) error {
	e, err := s.pool.get()
	if err != nil {
		return err
	}
	defer s.pool.put(e)
	return f(e)
}
