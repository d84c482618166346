package drp2

// objectTable maps ids to objects without hashing strings: ids that fit in
// uint64 index a slice while they stay dense (streams number their objects
// from some start upward), else a map of integers; larger ids, by their
// canonical decimal form, a map of their own. Every small id below
// len(dense) is in dense, never in sparse.
type objectTable struct {
	dense  []*object
	sparse map[uint64]*object
	big    map[string]*object
	count  int
}

// maxDense bounds the slice: 2^24 pointers, and only while at least about
// half of it is used (see set). A stream starts with the map: the slice is
// made only once it holds denseFrom objects, so that a short stream whose
// ids start at 1,000 does not clear 8 KiB or more for a handful of them.
const (
	maxDense  = 1 << 24
	denseFrom = 256
)

func (t *objectTable) get(id ID) *object {
	if id.big != "" {
		return t.big[id.big]
	}
	if id.n < uint64(len(t.dense)) {
		return t.dense[id.n]
	}
	return t.sparse[id.n]
}

// set records o under id, which names no object yet.
func (t *objectTable) set(id ID, o *object) {
	t.count++
	switch {
	case id.big != "":
		if t.big == nil {
			t.big = map[string]*object{}
		}
		t.big[id.big] = o
		return
	case id.n >= uint64(len(t.dense)) && id.n < maxDense && id.n <= 2*uint64(t.count)+4096 && t.count >= denseFrom:
		t.grow(int(id.n) + 1)
	}
	if id.n < uint64(len(t.dense)) {
		t.dense[id.n] = o
		return
	}
	if t.sparse == nil {
		t.sparse = map[uint64]*object{}
	}
	t.sparse[id.n] = o
}

// grow makes dense hold at least n ids, moving those of sparse it now
// covers.
func (t *objectTable) grow(n int) {
	n = min(max(n, 2*len(t.dense), 1024), maxDense)
	dense := make([]*object, n)
	copy(dense, t.dense)
	t.dense = dense
	for k, o := range t.sparse {
		if k < uint64(n) {
			dense[k] = o
			delete(t.sparse, k)
		}
	}
}

// idCounts counts per id, without hashing strings for ids that fit in
// uint64.
type idCounts struct {
	small map[uint64]int
	big   map[string]int
}

func (c *idCounts) get(id ID) int {
	if id.big != "" {
		return c.big[id.big]
	}
	return c.small[id.n]
}

// add adds d to the count of id, forgetting the id when it reaches 0.
func (c *idCounts) add(id ID, d int) {
	if id.big != "" {
		if c.big == nil {
			c.big = map[string]int{}
		}
		if c.big[id.big] += d; c.big[id.big] == 0 {
			delete(c.big, id.big)
		}
		return
	}
	if c.small == nil {
		c.small = map[uint64]int{}
	}
	if c.small[id.n] += d; c.small[id.n] == 0 {
		delete(c.small, id.n)
	}
}
