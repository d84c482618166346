package runner

import (
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
