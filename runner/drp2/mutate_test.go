package drp2

import (
	"context"
	"encoding/json"
	"io/fs"
	"math/rand"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/jsontree"
	"github.com/drp2/drp2-fixtures/model"
)

// Mutation testing: every fixture of both corpora (the project's embedded
// corpus and the upstream corpus beside the project) is a seed stream, and
// a mutation program changes ids, numbers, enum strings, lists, fields and
// command order. Whatever comes out, the validator must give a verdict
// that is deterministic, never DRP2_ERR_INTERNAL, and well formed.

// seed is one fixture's stream, decoded into generic JSON values (numbers
// kept as json.Number) so that mutations can edit it.
type seed struct {
	name     string
	version  model.Version
	caps     json.RawMessage
	commands []any
}

// mutationPool is what mutations draw from: the seeds, the strings seen
// under each key across both corpora (so enum mutations stay plausible),
// and the ids seen anywhere.
type mutationPool struct {
	seeds   []seed
	strings jsontree.Strings
}

var (
	poolOnce sync.Once
	pool     *mutationPool
)

func loadPool(tb testing.TB) *mutationPool {
	poolOnce.Do(func() {
		p := &mutationPool{strings: jsontree.Strings{}}
		add := func(name string, data []byte) {
			var doc struct {
				Version      fixtureVersion  `json:"version"`
				Capabilities json.RawMessage `json:"capabilities"`
				Commands     json.RawMessage `json:"commands"`
			}
			if json.Unmarshal(data, &doc) != nil {
				return
			}
			v, err := jsontree.DecodeTree(doc.Commands)
			cmds, ok := v.([]any)
			if err != nil || !ok {
				return
			}
			p.seeds = append(p.seeds, seed{name: name, version: model.Version(doc.Version), caps: doc.Capabilities, commands: cmds})
			for _, c := range cmds {
				p.strings.Add(c)
			}
		}
		_ = fs.WalkDir(fixtures.FS, ".", func(rel string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && path.Ext(rel) == ".json" {
				if data, err := fs.ReadFile(fixtures.FS, rel); err == nil {
					add("embedded:"+rel, data)
				}
			}
			return nil
		})
		for _, dir := range []string{"positive", "negative", "negative_schema"} {
			entries, _ := os.ReadDir(corpus + "/" + dir)
			for _, e := range entries {
				if data, err := os.ReadFile(corpus + "/" + dir + "/" + e.Name()); err == nil && strings.HasSuffix(e.Name(), ".json") {
					add("upstream:"+dir+"/"+e.Name(), data)
				}
			}
		}
		p.strings.Sort()
		pool = p
	})
	if _, err := os.Stat(corpus); err != nil {
		missingUpstream(tb, "upstream corpus not found at %s: %v", corpus, err)
	}
	if len(pool.seeds) < 300 {
		tb.Fatalf("only %d seed fixtures loaded from both corpora", len(pool.seeds))
	}
	return pool
}

// program reads mutation choices from fuzz bytes.
type program struct {
	b []byte
	i int
}

func (p *program) next(n int) int {
	if n <= 0 {
		return 0
	}
	if p.i >= len(p.b) {
		return 0
	}
	v := int(p.b[p.i])
	p.i++
	if n > 256 && p.i < len(p.b) {
		v = v<<8 | int(p.b[p.i])
		p.i++
	}
	return v % n
}

func (p *program) done() bool { return p.i >= len(p.b) }

// mutate applies up to 16 mutations chosen by prog to a copy of cmds.
func (pl *mutationPool) mutate(cmds []any, prog *program) []any {
	cmds = jsontree.Clone(cmds).([]any)
	ids := idValues(cmds)
	for step := 0; step < 16 && !prog.done(); step++ {
		op := prog.next(9)
		if len(cmds) == 0 {
			return cmds
		}
		c := prog.next(len(cmds))
		switch op {
		case 0, 1: // a number: a neighbour, an edge value, or another id
			var nums []jsontree.Slot
			for _, s := range jsontree.Slots(cmds[c]) {
				if _, ok := s.Val.(json.Number); ok {
					nums = append(nums, s)
				}
			}
			if len(nums) == 0 {
				continue
			}
			s := nums[prog.next(len(nums))]
			s.Set(numberMutation(s.Val.(json.Number), ids, prog))
		case 2: // an enum or other short string, from those seen at the key
			var strs []jsontree.Slot
			for _, s := range jsontree.Slots(cmds[c]) {
				if _, ok := s.Val.(string); ok && len(pl.strings[s.Key]) > 1 {
					strs = append(strs, s)
				}
			}
			if len(strs) == 0 {
				continue
			}
			s := strs[prog.next(len(strs))]
			choices := pl.strings[s.Key]
			s.Set(choices[prog.next(len(choices))])
		case 3: // a list: drop, repeat or empty one
			var lists []jsontree.Slot
			for _, s := range jsontree.Slots(cmds[c]) {
				if l, ok := s.Val.([]any); ok && len(l) > 0 {
					lists = append(lists, s)
				}
			}
			if len(lists) == 0 {
				continue
			}
			s := lists[prog.next(len(lists))]
			l := s.Val.([]any)
			k := prog.next(len(l))
			s.Set(jsontree.EditList(l, k, prog.next(jsontree.ListEdits)))
		case 4: // drop a field
			var fields []jsontree.Slot
			for _, s := range jsontree.Slots(cmds[c]) {
				if s.Drop != nil && s.Key != "cmd" {
					fields = append(fields, s)
				}
			}
			if len(fields) > 0 {
				fields[prog.next(len(fields))].Drop()
			}
		case 5: // swap two commands
			d := prog.next(len(cmds))
			cmds[c], cmds[d] = cmds[d], cmds[c]
		case 6: // delete a command
			cmds = append(cmds[:c], cmds[c+1:]...)
		case 7: // repeat a command
			cmds = append(cmds[:c+1], append([]any{jsontree.Clone(cmds[c])}, cmds[c+1:]...)...)
		case 8: // move a command to another place
			d := prog.next(len(cmds))
			moved := cmds[c]
			cmds = append(cmds[:c], cmds[c+1:]...)
			if d > len(cmds) {
				d = len(cmds)
			}
			cmds = append(cmds[:d], append([]any{moved}, cmds[d:]...)...)
		}
	}
	return cmds
}

// idValues lists the values of id fields in the stream, to remap one id
// onto another object.
func idValues(cmds []any) []json.Number {
	var out []json.Number
	for _, c := range cmds {
		for _, s := range jsontree.Slots(c) {
			if n, ok := s.Val.(json.Number); ok && (s.Key == "id" || strings.HasSuffix(s.Key, "_id")) {
				out = append(out, n)
			}
		}
	}
	return out
}

func numberMutation(v json.Number, ids []json.Number, prog *program) any {
	n, _ := strconv.ParseInt(string(v), 10, 64)
	switch prog.next(8) {
	case 0:
		return json.Number("0")
	case 1:
		return json.Number(strconv.FormatInt(n+1, 10))
	case 2:
		return json.Number(strconv.FormatInt(n-1, 10))
	case 3:
		return json.Number(strconv.FormatInt(n*2+1, 10))
	case 4:
		if len(ids) > 0 {
			return ids[prog.next(len(ids))]
		}
		return json.Number("1")
	case 5:
		return json.Number("4294967296")
	case 6:
		return json.Number("1e30")
	}
	return json.Number("1")
}

// stream builds the checker's input from mutated commands.
func (sd seed) stream(cmds []any) (model.Stream, bool) {
	s := model.Stream{Version: sd.version, Capabilities: sd.caps}
	for _, c := range cmds {
		raw, err := json.Marshal(c)
		if err != nil {
			return s, false
		}
		s.Commands = append(s.Commands, raw)
	}
	return s, true
}

// checkVerdict asserts the properties every verdict has: deterministic
// (two checks, a traced check, and a check decoding ahead agree), never
// DRP2_ERR_INTERNAL, a known phase and code, a command index in range, and
// a catalogued rule named in the message.
func checkVerdict(t *testing.T, name string, s model.Stream) {
	c := New()
	f1, found1 := c.Check(context.Background(), s, nil)
	f2, found2 := c.Check(context.Background(), s, nil)
	f3, _ := c.Check(context.Background(), s, func(string) {})
	f4, _ := (&Checker{ahead: tinyAhead[2]}).Check(context.Background(), s, nil)
	same := func(a, b *model.Failure) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	if !same(f1, f2) || !same(f1, f3) || len(found1) != len(found2) {
		t.Fatalf("%s: verdict is not deterministic: %+v, %+v, %+v", name, f1, f2, f3)
	}
	if !same(f1, f4) {
		t.Fatalf("%s: decoding ahead gives %+v, serially %+v", name, f4, f1)
	}
	for i := range found1 {
		if found1[i] != found2[i] {
			t.Fatalf("%s: findings are not deterministic", name)
		}
	}
	if f1 == nil {
		return
	}
	if f1.Code == "DRP2_ERR_INTERNAL" || !knownCodes[f1.Code] {
		t.Fatalf("%s: code %s: %s", name, f1.Code, f1.Message)
	}
	if f1.Phase != model.PhaseSemantic && f1.Phase != model.PhaseCapability {
		t.Fatalf("%s: phase %q", name, f1.Phase)
	}
	if f1.CommandIndex < -1 || f1.CommandIndex >= len(s.Commands) {
		t.Fatalf("%s: command index %d out of [-1, %d)", name, f1.CommandIndex, len(s.Commands))
	}
	checkRule(t, f1)
}

// FuzzMutatedFixtures mutates fixture streams of both corpora: pick chooses
// the fixture, ops the mutations.
func FuzzMutatedFixtures(f *testing.F) {
	pl := loadPool(f)
	for i := range pl.seeds {
		f.Add(uint16(i), []byte{})
		f.Add(uint16(i), []byte{byte(i), byte(i >> 3), byte(i * 7), 0, byte(i * 13)})
	}
	f.Fuzz(func(t *testing.T, pick uint16, ops []byte) {
		sd := pl.seeds[int(pick)%len(pl.seeds)]
		s, ok := sd.stream(pl.mutate(sd.commands, &program{b: ops}))
		if ok {
			checkVerdict(t, sd.name, s)
		}
	})
}

// TestMutatedFixtures runs a fixed, seeded sample of mutations on every
// test run, so that the properties hold without -fuzz too.
func TestMutatedFixtures(t *testing.T) {
	pl := loadPool(t)
	rng := rand.New(rand.NewSource(9))
	ops := make([]byte, 24)
	for i := 0; i < 4000; i++ {
		sd := pl.seeds[rng.Intn(len(pl.seeds))]
		rng.Read(ops)
		s, ok := sd.stream(pl.mutate(sd.commands, &program{b: ops[:1+rng.Intn(len(ops))]}))
		if ok {
			checkVerdict(t, sd.name, s)
		}
	}
}
