package harness

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// upstream is the DRP2 corpus, read in place.
const upstream = "../../../shared/drp2/fixtures"

func missingUpstream(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// readbackFixtures returns the upstream positive fixtures that carry a
// QueueSubmitReply: the stream's own replies are the right answer.
func readbackFixtures(t *testing.T) map[string][]json.RawMessage {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(upstream, "positive", "*.json"))
	if err != nil || len(paths) == 0 {
		missingUpstream(t, "upstream corpus not found at %s: %v", upstream, err)
	}
	out := map[string][]json.RawMessage{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var fx struct {
			Commands []json.RawMessage `json:"commands"`
		}
		if err := json.Unmarshal(data, &fx); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, c := range fx.Commands {
			if strings.Contains(string(c), `"QueueSubmitReply"`) {
				out[filepath.Base(p)] = fx.Commands
				break
			}
		}
	}
	if len(out) < 3 {
		t.Fatalf("only %d readback fixtures found", len(out))
	}
	return out
}

// replies are the QueueSubmitReply commands of a stream.
func replies(commands []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	for _, c := range commands {
		var h struct{ Cmd string }
		if json.Unmarshal(c, &h) == nil && h.Cmd == "QueueSubmitReply" {
			out = append(out, c)
		}
	}
	return out
}

// edit decodes reply i, changes it and encodes it again.
func edit(rs []json.RawMessage, i int, change func(r map[string]any)) []json.RawMessage {
	out := append([]json.RawMessage(nil), rs...)
	dec := json.NewDecoder(strings.NewReader(string(rs[i])))
	dec.UseNumber()
	var r map[string]any
	if err := dec.Decode(&r); err != nil {
		panic(err)
	}
	change(r)
	b, _ := json.Marshal(r)
	out[i] = b
	return out
}

func firstReadback(r map[string]any) map[string]any {
	return r["readbacks"].([]any)[0].(map[string]any)
}

// knownBadData is the upstream fixture whose own QueueSubmitReply data is
// not valid base64 (90 characters where 64 bytes take 88): the checker
// must say so. The other fixtures' replies are right as written.
const knownBadData = "pressure_picking_readback.json"

// repaired gives every readback of the replies the right number of zero
// bytes as data, for mutation tests that start from a correct answer.
func repaired(t *testing.T, rs []json.RawMessage) []json.RawMessage {
	t.Helper()
	for i := range rs {
		rs = edit(rs, i, func(r map[string]any) {
			for _, rb := range r["readbacks"].([]any) {
				m := rb.(map[string]any)
				n, err := m["size"].(json.Number).Int64()
				if err != nil {
					t.Fatal(err)
				}
				m["data"] = base64.StdEncoding.EncodeToString(make([]byte, n))
			}
		})
	}
	return rs
}

// TestLevel2OnTheCorpus: each readback fixture's own replies mirror its
// requests, and every way of breaking the shape is caught and named.
func TestLevel2OnTheCorpus(t *testing.T) {
	for name, commands := range readbackFixtures(t) {
		reqs := Requests(commands)
		good := replies(commands)
		if len(reqs) == 0 || len(reqs) != len(good) {
			t.Fatalf("%s: %d requests, %d replies", name, len(reqs), len(good))
		}
		err := CheckReplies(reqs, good)
		if name == knownBadData {
			if err == nil || !strings.Contains(err.Message, "data is not base64") {
				t.Errorf("%s: the corpus's malformed reply data is not caught: %v", name, err)
			}
		} else if err != nil {
			t.Errorf("%s: the fixture's own replies fail: %v", name, err)
		}
		good = repaired(t, good)
		if err := CheckReplies(reqs, good); err != nil {
			t.Fatalf("%s: repaired replies fail: %v", name, err)
		}
		bad := map[string][]json.RawMessage{
			"submission_id 999999":     edit(good, 0, func(r map[string]any) { r["submission_id"] = json.Number("999999") }),
			"buffer_id is":             edit(good, 0, func(r map[string]any) { firstReadback(r)["buffer_id"] = json.Number("424242") }),
			"offset is":                edit(good, 0, func(r map[string]any) { firstReadback(r)["offset"] = json.Number("4") }),
			"size is":                  edit(good, 0, func(r map[string]any) { firstReadback(r)["size"] = json.Number("3") }),
			"data holds":               edit(good, 0, func(r map[string]any) { firstReadback(r)["data"] = "AAAA" }),
			"not base64":               edit(good, 0, func(r map[string]any) { firstReadback(r)["data"] = "!!" }),
			"data is missing":          edit(good, 0, func(r map[string]any) { delete(firstReadback(r), "data") }),
			"readbacks; the":           edit(good, 0, func(r map[string]any) { r["readbacks"] = []any{} }),
			"not \"QueueSubmitReply\"": edit(good, 0, func(r map[string]any) { r["cmd"] = "RendererHelloReply" }),
			"is missing":               good[:len(good)-1],
			"replies came, but":        append(append([]json.RawMessage(nil), good...), good[0]),
		}
		for want, rs := range bad {
			err := CheckReplies(reqs, rs)
			if err == nil || !strings.Contains(err.Message, want) {
				t.Errorf("%s, %s: got %v", name, want, err)
				continue
			}
			if err.Command >= 0 && err.Command != reqs[0].Command && want != "is missing" {
				t.Errorf("%s, %s: blamed command %d, want %d", name, want, err.Command, reqs[0].Command)
			}
		}
		if len(good) > 1 {
			swapped := []json.RawMessage{good[1], good[0]}
			swapped = append(swapped, good[2:]...)
			if err := CheckReplies(reqs, swapped); err == nil {
				t.Errorf("%s: replies out of order pass", name)
			}
		}
	}
}

// TestLevel2EndToEnd runs an executing implementation over the upstream
// positive fixtures: mirrored replies pass Level 2, a reply with short
// data fails it at the QueueSubmit concerned, and a missing reply too.
func TestLevel2EndToEnd(t *testing.T) {
	if _, err := os.Stat(upstream); err != nil {
		missingUpstream(t, "upstream corpus not found at %s: %v", upstream, err)
	}
	base, err := runner.Run(context.Background(), runner.Config{Corpus: upstream, Paths: []string{filepath.Join(upstream, "positive")}, Checker: drp2.New()})
	if err != nil {
		t.Fatal(err)
	}
	read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(upstream, filepath.FromSlash(rel))) }
	spec := "executes,shortdata:queue_submit_readback_basic,noreply:query_rg32uint_readback"
	im := runHarness(t, Config{Commands: []string{self(t)}, Env: env(spec)}, base, read)[0]
	if !im.Executes {
		t.Fatal("the implementation should claim Level 2")
	}
	checked, passed := im.Level2Counts()
	if checked != base.Summary.Run || passed != checked-2 {
		t.Errorf("Level 2: %d checked, %d passed, of %d positive fixtures", checked, passed, base.Summary.Run)
	}
	for _, r := range im.Results {
		switch r.Name {
		case "queue_submit_readback_basic", "query_rg32uint_readback":
			if r.Passed || r.Actual.Rule != level2Rule || !strings.HasPrefix(r.Actual.Message, "Level 2: ") || r.Span == nil {
				t.Errorf("%s: %+v", r.Name, r.Actual)
			}
			if im.Level2[r.RelPath] {
				t.Errorf("%s counted as a Level 2 pass", r.Name)
			}
		default:
			if !r.Passed && r.Actual.Outcome != model.HarnessError {
				t.Errorf("%s: %+v", r.Name, r.Actual)
			}
		}
	}
}
