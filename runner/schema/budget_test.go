package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestBudgetStopsAnExponentialSchema: the envelope and the command schema
// that double their work at each of 40 levels end with an *ExhaustedError
// that names the budget, in well under the time a verdict would take.
func TestBudgetStopsAnExponentialSchema(t *testing.T) {
	hostile := Document{URL: "https://example.invalid/hostile.json", Data: testkit.ExponentialSchema("", 40)}
	set, err := Compile(hostile, hostile)
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{"name": "x", "commands": []any{map[string]any{"cmd": "HelloRenderer"}}}
	start := time.Now()
	for name, validate := range map[string]func(any) error{"envelope": set.ValidateEnvelope, "command": set.ValidateCommand} {
		err := validate(doc)
		var out *ExhaustedError
		if !errors.As(err, &out) || out.Steps != Budget(doc) {
			t.Fatalf("%s: %v, want the budget of %d steps exceeded", name, err, Budget(doc))
		}
		if want := fmt.Sprintf("schema evaluation exceeded its budget of %d steps", Budget(doc)); err.Error() != want {
			t.Errorf("%s: %q, want %q", name, err, want)
		}
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("two validations took %v", d)
	}
}

// TestBudgetIsPerValidation: a validation's steps are its own, however
// many run at once on one Set: out of budget or not is the same answer
// for each value on every goroutine.
func TestBudgetIsPerValidation(t *testing.T) {
	doc := Document{URL: "https://example.invalid/s.json", Data: testkit.ExponentialSchema("boom", 40)}
	set, err := Compile(doc, doc)
	if err != nil {
		t.Fatal(err)
	}
	values := []any{map[string]any{"boom": "x"}, map[string]any{"calm": "x"}}
	var wg sync.WaitGroup
	results := make([][2]error, 8)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, v := range values {
				results[g][i] = set.ValidateCommand(v)
			}
		}()
	}
	wg.Wait()
	for g, r := range results {
		var out *ExhaustedError
		if !errors.As(r[0], &out) {
			t.Errorf("goroutine %d: %v, want the budget exceeded", g, r[0])
		}
		if r[1] != nil {
			t.Errorf("goroutine %d: %v, want valid", g, r[1])
		}
	}
}

// TestBudgetMargin: no validation of the upstream corpus or the project's,
// with the upstream schemas or the embedded ones, spends more than a
// quarter of its budget, so the budget never changes their verdicts.
func TestBudgetMargin(t *testing.T) {
	up := filepath.Join("..", "..", "..", "shared", "drp2")
	if _, err := os.Stat(up); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the upstream DRP2 spec is not at %s", up)
		}
		t.Skipf("SKIPPED: the upstream DRP2 spec is not at %s", up)
	}
	abs, err := filepath.Abs(up)
	if err != nil {
		t.Fatal(err)
	}
	onDisk := func(p string) Document {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return Document{URL: (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String(), Data: data,
			Load: Folder(os.DirFS(filepath.Dir(p)), filepath.ToSlash(filepath.Dir(p)))}
	}
	upstream, err := Compile(onDisk(filepath.Join(abs, "schema", "drp_command.json")), onDisk(filepath.Join(abs, "fixtures", "schema", "drp_fixture.schema.json")))
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := Compile(EmbeddedCommand(), EmbeddedFixture())
	if err != nil {
		t.Fatal(err)
	}
	corpora := map[string]fs.FS{"upstream": os.DirFS(filepath.Join(abs, "fixtures")), "own": fixtures.FS}
	for _, sets := range []struct {
		name string
		set  *Set
	}{{"upstream schemas", upstream}, {"embedded schemas", embedded}} {
		for name, corpus := range corpora {
			most := margin(t, sets.set, corpus)
			t.Logf("%s on the %s corpus: at most %.3f of a budget", sets.name, name, most)
		}
	}
}

// margin validates every fixture of corpus and each of its commands (with
// its branch and with the whole command schema) and returns the largest
// share of a budget one spent; a share above a quarter fails t.
func margin(t *testing.T, set *Set, corpus fs.FS) float64 {
	t.Helper()
	e := set.first
	most, count := 0.0, 0
	// A command's steps depend on its bytes alone: a repeated one (every
	// stream opens with the same two) is measured once.
	seen := map[string]bool{}
	measure := func(path, what string, v any, validate func(any) error) {
		_ = validate(v) // the verdict is the corpus tests' business
		share := float64(e.meter.spent) / float64(Budget(v))
		if share > most {
			most = share
		}
		if share > 0.25 {
			t.Errorf("%s %s: %d steps of a budget of %d", path, what, e.meter.spent, Budget(v))
		}
		count++
	}
	err := fs.WalkDir(corpus, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || p == "manifest.json" || strings.HasPrefix(p, "schema/") {
			return err
		}
		data, err := fs.ReadFile(corpus, p)
		if err != nil {
			return err
		}
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.UseNumber()
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		measure(p, "envelope", doc, func(v any) error { return e.validate(e.envelope, v) })
		cmds, _ := doc["commands"].([]any)
		for i, c := range cmds {
			key, _ := json.Marshal(c)
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			what := fmt.Sprintf("command %d", i)
			measure(p, what, c, func(v any) error { return e.validate(e.command, v) })
			cmd, _ := c.(map[string]any)["cmd"].(string)
			if b := e.branches[cmd]; b != nil {
				measure(p, what+" (its branch)", c, func(v any) error { return e.validate(b, v) })
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count < 500 {
		t.Errorf("only %d validations measured", count)
	}
	return most
}

// TestBudgetCountsKeywordWork: the work the library does inside one
// schema object, outside any subschema, is charged too: an enum of 20,000
// numbers compared with each of 100 numbers (which the library parses
// afresh at each comparison), and a hundred patterns matched against a
// mebibyte string, end with the budget exceeded after the first few
// evaluations instead of seconds of comparing and matching.
func TestBudgetCountsKeywordWork(t *testing.T) {
	var enum, patterns []string
	for i := range 20000 {
		enum = append(enum, strconv.Itoa(i))
	}
	for range 100 {
		patterns = append(patterns, `{"pattern":"a+b"}`)
	}
	numbers := make([]any, 100)
	for i := range numbers {
		numbers[i] = json.Number("-1")
	}
	for _, c := range []struct {
		name, schema string
		value        any
	}{
		{"enum", `{"items":{"enum":[` + strings.Join(enum, ",") + `]}}`, numbers},
		{"pattern", `{"allOf":[` + strings.Join(patterns, ",") + `]}`, strings.Repeat("a", 1<<20)},
	} {
		set, err := Compile(Document{URL: "https://example.invalid/" + c.name + ".json", Data: []byte(c.schema)}, EmbeddedFixture())
		if err != nil {
			t.Fatal(err)
		}
		d := testkit.CPUTime(func() { err = set.ValidateCommand(c.value) })
		var out *ExhaustedError
		if !errors.As(err, &out) {
			t.Errorf("%s: %v, want the budget exceeded", c.name, err)
		}
		t.Logf("%s: %v of CPU", c.name, d)
		if d > time.Second {
			t.Errorf("%s: the validation took %v of CPU", c.name, d)
		}
	}
}

// TestCompilationBudget: schemas whose compilation the library does in
// time that grows with the square of their objects, a chain of 32,000
// references (a megabyte) or a megabyte of empty schemas, are refused
// before the library sees them, naming the file and the budget, while
// a schema just within the budget compiles.
func TestCompilationBudget(t *testing.T) {
	chain := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
		for i := range n {
			fmt.Fprintf(&b, `"d%d":{"$ref":"#/$defs/d%d"},`, i, i+1)
		}
		fmt.Fprintf(&b, `"d%d":true}}`, n)
		return []byte(b.String())
	}
	empty := []byte(`{"allOf":[{}` + strings.Repeat(`,{}`, 1<<20/3) + `]}`)
	for name, data := range map[string][]byte{"chain": chain(32000), "empty": empty} {
		u := "https://example.invalid/" + name + ".json"
		var err error
		d := testkit.CPUTime(func() { _, err = Compile(Document{URL: u, Data: data}, EmbeddedFixture()) })
		want := fmt.Sprintf("command schema: cannot compile %s: the schemas and the files they refer to hold more than %d schema objects, the budget of a compilation", u, MaxObjects)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
		t.Logf("%s: refused in %v of CPU", name, d)
		if d > time.Second {
			t.Errorf("%s: refusing took %v of CPU", name, d)
		}
	}
	if _, err := Compile(Document{URL: "https://example.invalid/within.json", Data: chain(1000)}, EmbeddedFixture()); err != nil {
		t.Errorf("a chain of 1,000 references: %v", err)
	}
}
