// Package secret keeps the secrets the process holds (the GitHub token,
// and any variable named like a secret) away from the programs it starts
// and out of every text it writes or posts. Hide takes them out of the
// process's environment as the kernel shows it to other processes; a
// Redactor replaces them, and every encoding of them a text is likely to
// carry, wherever a text comes from.
package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"html"
	"io"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/drp2/drp2-fixtures/report/escape"
)

// Mask replaces a secret, as GitHub's own log masking does.
const Mask = "***"

// MinLength is the shortest value redacted: a shorter one (a variable
// named like a secret that holds "1" or "true") would mangle every text
// and protect nothing.
const MinLength = 6

// IsName reports whether an environment variable's name marks a secret:
// it contains TOKEN, SECRET or PASSWORD, in any case.
func IsName(name string) bool {
	upper := strings.ToUpper(name)
	return strings.Contains(upper, "TOKEN") || strings.Contains(upper, "SECRET") || strings.Contains(upper, "PASSWORD")
}

// FromEnviron returns the values of the variables of environ (NAME=value
// entries) whose names mark secrets.
func FromEnviron(environ []string) []string {
	var out []string
	for _, kv := range environ {
		if name, value, ok := strings.Cut(kv, "="); ok && IsName(name) && value != "" {
			out = append(out, value)
		}
	}
	return out
}

// Redactor replaces secrets in text. The zero value and nil redact
// nothing; it is safe for concurrent use, and secrets may be added at any
// time (the action learns its token from its inputs).
type Redactor struct {
	mu       sync.RWMutex
	secrets  map[string]bool
	replacer *strings.Replacer
}

// NewRedactor returns a Redactor of these secrets.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// Add adds secrets; values shorter than MinLength are ignored.
func (r *Redactor) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for _, s := range secrets {
		if len(s) < MinLength || r.secrets[s] {
			continue
		}
		if r.secrets == nil {
			r.secrets = map[string]bool{}
		}
		r.secrets[s], changed = true, true
	}
	if !changed {
		return
	}
	seen := map[string]bool{}
	var forms []string
	for s := range r.secrets {
		for _, f := range Forms(s) {
			if !seen[f] && len(f) >= MinLength {
				seen[f] = true
				forms = append(forms, f)
			}
		}
	}
	// Longest first: where two forms start at one place, the replacer
	// takes the one given first, and the longer one hides more.
	sort.Slice(forms, func(i, j int) bool {
		if len(forms[i]) != len(forms[j]) {
			return len(forms[i]) > len(forms[j])
		}
		return forms[i] < forms[j]
	})
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Mask)
	}
	r.replacer = strings.NewReplacer(pairs...)
}

// Empty reports whether r redacts nothing.
func (r *Redactor) Empty() bool {
	if r == nil {
		return true
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.replacer == nil
}

func (r *Redactor) current() *strings.Replacer {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.replacer
}

// String returns s with every secret, in every form, replaced by Mask.
func (r *Redactor) String(s string) string {
	if rep := r.current(); rep != nil {
		return rep.Replace(s)
	}
	return s
}

// Bytes is String for bytes; b itself is left as it was.
func (r *Redactor) Bytes(b []byte) []byte {
	rep := r.current()
	if rep == nil {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b))
	rep.WriteString(&out, string(b))
	return out.Bytes()
}

// Value redacts, in place, every string and byte slice reachable from v
// through pointers, exported struct fields, slices, arrays and maps: the
// model of a run, whose text comes from fixtures, implementations and
// other jobs' reports, before any sink renders it.
func (r *Redactor) Value(v any) {
	rep := r.current()
	if rep == nil || v == nil {
		return
	}
	walk(rep, reflect.ValueOf(v))
}

func walk(rep *strings.Replacer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(rep, v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walk(rep, v.Field(i))
			}
		}
	case reflect.String:
		if v.CanSet() {
			if s := rep.Replace(v.String()); s != v.String() {
				v.SetString(s)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if v.CanSet() && !v.IsNil() {
				if s := rep.Replace(string(v.Bytes())); s != string(v.Bytes()) {
					v.Set(reflect.ValueOf([]byte(s)).Convert(v.Type()))
				}
			}
			return
		}
		for i := 0; i < v.Len(); i++ {
			walk(rep, v.Index(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walk(rep, v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		// Map entries are not addressable: each is copied, redacted and
		// stored again, under its redacted key.
		for _, k := range v.MapKeys() {
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(v.MapIndex(k))
			walk(rep, val)
			key := reflect.New(v.Type().Key()).Elem()
			key.Set(k)
			walk(rep, key)
			if !key.Equal(k) {
				v.SetMapIndex(k, reflect.Value{})
			}
			v.SetMapIndex(key, val)
		}
	}
}

// Forms are the spellings of a secret a text may carry: as it is; escaped
// for JSON, HTML, URLs, Markdown and workflow commands; in hex; and in
// base64, in both alphabets, at each of the three alignments it can have
// inside a longer encoded text (git's "Authorization: basic" header, as
// actions/checkout leaves it in .git/config, encodes
// "x-access-token:TOKEN"): only the characters that depend on the secret
// alone, so that whatever precedes or follows it, its encoding is found.
func Forms(s string) []string {
	forms := []string{s, url.QueryEscape(s), url.PathEscape(s), html.EscapeString(s),
		escape.Markdown(s), escape.HTML(s), escape.WorkflowData(s), escape.WorkflowProperty(s),
		hex.EncodeToString([]byte(s)), strings.ToUpper(hex.EncodeToString([]byte(s)))}
	if b, err := json.Marshal(s); err == nil {
		forms = append(forms, strings.Trim(string(b), `"`))
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) == nil {
		forms = append(forms, strings.Trim(strings.TrimSpace(b.String()), `"`))
	}
	for offset := 0; offset < 3; offset++ {
		data := append(make([]byte, offset), s...)
		std := base64.StdEncoding.EncodeToString(data)
		// Character i encodes bits 6i to 6i+5: keep those within the
		// secret's bits, 8·offset to 8·(offset+len).
		from, to := (8*offset+5)/6, 8*(offset+len(s))/6
		if to <= from {
			continue
		}
		core := std[from:to]
		forms = append(forms, core, strings.NewReplacer("+", "-", "/", "_").Replace(core))
	}
	return forms
}

// Writer returns a writer that redacts what it passes on to w, a line at
// a time (a secret never spans lines), so a secret split between two
// writes is still found. Flush writes a line left open.
func (r *Redactor) Writer(w io.Writer) *Writer {
	if w == nil {
		w = io.Discard
	}
	return &Writer{r: r, w: w}
}

// Writer is a redacting writer; see Redactor.Writer.
type Writer struct {
	r       *Redactor
	w       io.Writer
	mu      sync.Mutex
	pending []byte
}

func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.r.Empty() && len(w.pending) == 0 {
		return w.w.Write(p)
	}
	w.pending = append(w.pending, p...)
	end := bytes.LastIndexByte(w.pending, '\n')
	if end < 0 {
		return len(p), nil
	}
	if _, err := w.w.Write(w.r.Bytes(w.pending[:end+1])); err != nil {
		return 0, err
	}
	w.pending = append(w.pending[:0], w.pending[end+1:]...)
	return len(p), nil
}

// Flush writes what is left of an unfinished line.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	_, err := w.w.Write(w.r.Bytes(w.pending))
	w.pending = w.pending[:0]
	return err
}
