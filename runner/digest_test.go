package runner

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/model"
)

func TestDigestOfResults(t *testing.T) {
	a := []model.Result{{RelPath: "positive/b.json", Digest: model.Digest{File: "bb"}}, {RelPath: "negative/a.json", Digest: model.Digest{File: "aa"}}}
	b := []model.Result{a[1], a[0]}
	// sha256sum of "aa  negative/a.json\nbb  positive/b.json\n".
	const want = "db1256944ba378aa32e8fab934d944e0c8d46d37a2be9a11d66984cc61b14533"
	got := DigestOfResults(a)
	if got != DigestOfResults(b) {
		t.Errorf("the order of the results changed the digest")
	}
	if got != want {
		t.Errorf("DigestOfResults = %s, want sha256sum's %s", got, want)
	}
	a[0].Digest.File = "cc"
	if DigestOfResults(a) == got {
		t.Errorf("an edited fixture kept the digest")
	}
}

// Results in path order are hashed as they are, in pieces of the buffer:
// over many lines, the digest is still sha256sum's of the whole listing,
// and the same in any order.
func TestDigestOfManyResults(t *testing.T) {
	var results []model.Result
	var listing strings.Builder
	for i := range 3000 {
		r := model.Result{RelPath: fmt.Sprintf("positive/%05d-%s.json", i, strings.Repeat("x", i%90)), Digest: model.Digest{File: fmt.Sprintf("%064x", i)}}
		results = append(results, r)
		fmt.Fprintf(&listing, "%s  %s\n", r.Digest.File, r.RelPath)
	}
	want := fmt.Sprintf("%x", sha256.Sum256([]byte(listing.String())))
	if got := DigestOfResults(results); got != want {
		t.Errorf("in path order: %s, want %s", got, want)
	}
	slices.Reverse(results)
	if got := DigestOfResults(results); got != want {
		t.Errorf("reversed: %s, want %s", got, want)
	}
}
