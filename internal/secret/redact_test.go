package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/report/escape"
)

const tok = "ghs_16C7e42F292c6912E7710c838347Ae178B4a"

// TestEveryFormIsRedacted: the token, however a text carries it, becomes
// the mask, and the text around it survives.
func TestEveryFormIsRedacted(t *testing.T) {
	r := NewRedactor(tok)
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + tok))
	jsonTok, _ := json.Marshal("<" + tok + ">")
	texts := map[string]string{
		"raw":                tok,
		"git extraheader":    "http.https://github.com/.extraheader AUTHORIZATION: basic " + basic,
		"url base64":         base64.URLEncoding.EncodeToString([]byte("user:" + tok)),
		"base64, offset 1":   base64.StdEncoding.EncodeToString([]byte("a" + tok + "b")),
		"base64, offset 2":   base64.RawStdEncoding.EncodeToString([]byte("ab" + tok)),
		"query":              "https://x.example/?t=" + url.QueryEscape(tok+"/&"),
		"json":               string(jsonTok),
		"markdown":           escape.Markdown("the token " + tok),
		"workflow property":  escape.WorkflowProperty(tok),
		"hex":                hex.EncodeToString([]byte(tok)),
		"in a longer string": "before" + tok + "after",
	}
	for name, text := range texts {
		got := r.String(text)
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: %q was not redacted", name, got)
		}
		for _, f := range Forms(tok) {
			if strings.Contains(got, f) {
				t.Errorf("%s: %q still holds the form %q", name, got, f)
			}
		}
	}
	if got := r.String("before" + tok + "after"); got != "before***after" {
		t.Errorf("%q", got)
	}
	if got := r.String("nothing to hide"); got != "nothing to hide" {
		t.Errorf("%q", got)
	}
	var nilR *Redactor
	if nilR.String(tok) != tok || !nilR.Empty() {
		t.Error("a nil Redactor redacts")
	}
	// Values too short to be secrets are left alone.
	if short := NewRedactor("1", "true"); !short.Empty() || short.String("1 true") != "1 true" {
		t.Error("short values are redacted")
	}
}

type inner struct {
	Message string
	Raw     json.RawMessage
}

type outer struct {
	Name     string
	Kind     kind
	Items    []inner
	Ptr      *inner
	ByPath   map[string]bool
	Texts    map[string]string
	Array    [2]string
	hidden   string
	Count    int
	Interval []int
}

type kind string

// TestValue: every string of a model, named types, pointers, slices, maps
// (keys too) and raw JSON included, is redacted in place.
func TestValue(t *testing.T) {
	v := &outer{
		Name: "n " + tok, Kind: kind(tok),
		Items:  []inner{{Message: tok, Raw: json.RawMessage(`"` + tok + `"`)}},
		Ptr:    &inner{Message: "p" + tok},
		ByPath: map[string]bool{"a/" + tok + ".json": true, "b.json": false},
		Texts:  map[string]string{"k": tok},
		Array:  [2]string{tok, "x"},
		hidden: tok, Count: 3,
	}
	NewRedactor(tok).Value(v)
	b, _ := json.Marshal(v)
	if bytes.Contains(b, []byte(tok)) {
		t.Fatalf("%s", b)
	}
	if v.Name != "n ***" || v.Kind != Mask || v.Ptr.Message != "p***" || !v.ByPath["a/***.json"] || len(v.ByPath) != 2 ||
		v.Texts["k"] != Mask || string(v.Items[0].Raw) != `"***"` || v.Array[0] != Mask || v.Count != 3 {
		t.Errorf("%+v", v)
	}
}

// TestWriter: a secret split across writes is still redacted; a line left
// open is written by Flush.
func TestWriter(t *testing.T) {
	var out bytes.Buffer
	w := NewRedactor(tok).Writer(&out)
	half := len(tok) / 2
	w.Write([]byte("one " + tok[:half]))
	w.Write([]byte(tok[half:] + " two\nthree " + tok))
	if out.String() != "one *** two\n" {
		t.Errorf("%q", out.String())
	}
	w.Flush()
	if out.String() != "one *** two\nthree ***" {
		t.Errorf("%q", out.String())
	}
	// Secrets learnt later apply to later lines.
	r := NewRedactor()
	out.Reset()
	w = r.Writer(&out)
	w.Write([]byte("a\n"))
	r.Add(tok)
	w.Write([]byte(tok + "\n"))
	if out.String() != "a\n***\n" {
		t.Errorf("%q", out.String())
	}
}
