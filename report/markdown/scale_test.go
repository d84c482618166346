package markdown

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drp2/drp2-fixtures/internal/golden"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/report/internal/sample"
)

// TestScaleGolden: the comment, the job summary and the check run of one
// schema edit, at 3 failures and at 400 of a few causes.
func TestScaleGolden(t *testing.T) {
	for _, n := range []int{3, 400} {
		run := sample.SchemaEdit(n)
		golden.Check(t, fmt.Sprintf("scale-%d-comment.md", n), []byte(Comment(run, linked)))
		golden.Check(t, fmt.Sprintf("scale-%d-summary.md", n), []byte(summary(t, run, linked)))
		golden.Check(t, fmt.Sprintf("scale-%d-check.txt", n), checkDump(run, linked))
	}
}

// maxCompactChars bounds the compact comment of 400 failures of a few
// causes: a reviewer reads it in seconds; the check run, the job summary
// and JUnit list every failure.
const maxCompactChars = 10_000

// TestCompactCommentIsShort: 400 failures of a few causes make a comment
// of at most maxCompactChars characters, with and without the comparison
// with the base, and 5,000 failures of hundreds of causes one not much
// longer.
func TestCompactCommentIsShort(t *testing.T) {
	bare := sample.SchemaEdit(400)
	bare.Comparison = nil
	for name, run := range map[string]*model.Run{"compared": sample.SchemaEdit(400), "not compared": bare} {
		if n := utf8.RuneCountInString(Comment(run, linked)); n > maxCompactChars {
			t.Errorf("%s: the comment of 400 failures has %d characters, want at most %d", name, n, maxCompactChars)
		}
	}
	if n := utf8.RuneCountInString(Comment(sample.Large(5000), linked)); n > 2*maxCompactChars {
		t.Errorf("the comment of 5000 failures of 487 causes has %d characters", n)
	}
}

// TestEachFailureListedOnce: no failing fixture is linked twice in a
// comment, whether it is listed in the comparison or with the failures.
func TestEachFailureListedOnce(t *testing.T) {
	bare := sample.SchemaEdit(400)
	bare.Comparison = nil
	for name, run := range map[string]*model.Run{"sample": sample.Run(), "compared sample": sample.Compared(),
		"schema edit": sample.SchemaEdit(400), "schema edit, not compared": bare, "3": sample.SchemaEdit(3)} {
		c := Comment(run, linked)
		listed := 0
		for _, r := range run.Results {
			if r.Passed {
				continue
			}
			link := "](https://github.com/drp2/drp2-fixtures/blob/" + linked.SHA + "/" + r.Path
			switch k := strings.Count(c, link); {
			case k > 1:
				t.Errorf("%s: %s is linked %d times", name, r.RelPath, k)
			case k == 1:
				listed++
			}
		}
		if listed == 0 {
			t.Errorf("%s: no failure is linked", name)
		}
	}
}
