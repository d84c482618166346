package baseline

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	git "github.com/go-git/go-git/v5"
)

// manyEntriesOneBlob is a repository whose one commit holds n fixture
// entries that name one blob of size bytes (git stores it once).
func manyEntriesOneBlob(t *testing.T, n, size int) (dir string, repo *git.Repository) {
	t.Helper()
	dir = t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	blob := projectFixture(t, "positive/compute_empty_pass_finish.json")
	blob = append(blob, []byte(strings.Repeat(" ", size-len(blob)))...)
	files := map[string][]byte{}
	for i := range n {
		files[fmt.Sprintf("fixtures/positive/copy_%03d.json", i)] = blob
	}
	writeTree(t, dir, files)
	commitAll(t, repo, "many copies")
	return dir, repo
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A base commit whose tree names one blob many times is not loaded into
// memory entry by entry (60 entries of one 40 MB blob cost 1.9 GB): the
// corpus is listed, and each fixture is read when the runner reads it.
func TestBaseCorpusIsNotHeldInMemory(t *testing.T) {
	const n, size = 60, 2 << 20
	dir, repo := manyEntriesOneBlob(t, n, size)
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	commit, err := repo.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	tree, err := commit.Tree()
	if err != nil {
		t.Fatal(err)
	}
	before := heap()
	fsys, err := loadCorpus(repo, &sync.Mutex{}, tree, "fixtures", 32<<20)
	if err != nil {
		t.Fatal(err)
	}
	held := int64(heap()) - int64(before)
	runtime.KeepAlive(fsys)
	if held > 16<<20 {
		t.Errorf("the listed base corpus holds %d MB for %d entries of one %d MB blob", held>>20, n, size>>20)
	}

	// The base still runs, every copy read in turn.
	cfg := headConfig(dir)
	run, commitHash, err := FromCommit(context.Background(), cfg, head.Hash().String())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Results) != n || commitHash != head.Hash().String() {
		t.Fatalf("%d results at %s", len(run.Results), commitHash)
	}
	for _, r := range run.Results {
		if !r.Passed {
			t.Errorf("%s: %+v", r.Path, r.Actual)
		}
	}

	// And the whole is bounded: past the total, no base rather than a
	// runner out of memory.
	defer func(old int64) { maxBaseTotal = old }(maxBaseTotal)
	maxBaseTotal = 50 << 20
	_, _, err = FromCommit(context.Background(), cfg, head.Hash().String())
	if u, ok := err.(*Unavailable); !ok || !strings.Contains(u.Reason, "more than 50 MiB in all") {
		t.Errorf("over the total: %v", err)
	}
}
