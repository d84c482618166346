package drp2

import (
	"math/rand"
	"strconv"
	"testing"
)

// TestObjectTableIsAMap holds objectTable and idCounts to plain maps of
// ID under random ids: dense runs, sparse and huge values, and ids that
// land in the sparse map before the slice grows over them.
func TestObjectTableIsAMap(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var table objectTable
	var counts idCounts
	want := map[ID]*object{}
	wantCounts := map[ID]int{}
	randomID := func() ID {
		switch rng.Intn(6) {
		case 0:
			return ID{n: uint64(rng.Intn(200))}
		case 1:
			return ID{n: uint64(rng.Intn(20000))}
		case 2:
			return ID{n: uint64(rng.Intn(1 << 26))}
		case 3:
			return ID{n: rng.Uint64()}
		case 4:
			return ID{big: strconv.Itoa(rng.Intn(50)) + "e30"}
		}
		return ID{n: uint64(len(want) + rng.Intn(8))}
	}
	for i := 0; i < 200000; i++ {
		id := randomID()
		if table.get(id) != want[id] {
			t.Fatalf("step %d: get(%v) = %p, want %p", i, id, table.get(id), want[id])
		}
		if want[id] == nil {
			o := &object{id: id}
			want[id] = o
			table.set(id, o)
		}
		d := rng.Intn(3) - 1
		if wantCounts[id]+d < 0 {
			d = 1
		}
		wantCounts[id] += d
		counts.add(id, d)
		if counts.get(id) != wantCounts[id] {
			t.Fatalf("step %d: count of %v is %d, want %d", i, id, counts.get(id), wantCounts[id])
		}
	}
	for id, o := range want {
		if table.get(id) != o {
			t.Fatalf("get(%v) = %p, want %p", id, table.get(id), o)
		}
	}
	if len(table.dense) == 0 || len(table.sparse) == 0 || len(table.big) == 0 {
		t.Fatalf("the test missed a part of the table: %d dense, %d sparse, %d big", len(table.dense), len(table.sparse), len(table.big))
	}
}

// TestItemPointers holds the built pointers to the ones they stand for.
func TestItemPointers(t *testing.T) {
	for _, p := range []*itemPointers{entryPointers, bufferIDPointers, readbackPointers, attachmentPointers, dynamicOffsetPoints, layoutIDPointers} {
		for i := -1; i < 20; i++ {
			for _, sfx := range append(p.suffixes, "/other") {
				if got, want := p.at(i, sfx), p.prefix+strconv.Itoa(i)+sfx; got != want {
					t.Fatalf("at(%d, %q) = %q, want %q", i, sfx, got, want)
				}
			}
		}
	}
}
