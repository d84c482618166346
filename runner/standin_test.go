package runner

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/drp2/drp2-fixtures/runner/drp2"
)

// The stand-ins every fixture shares are only read: after a run over the
// project's corpus, each still holds its cmd and nothing else.
func TestSharedStandInsAreOnlyRead(t *testing.T) {
	runCorpus(t, Config{Corpus: filepath.Join("..", "fixtures"), Checker: drp2.New()})
	standIns.RLock()
	defer standIns.RUnlock()
	if len(standIns.byToken) == 0 {
		t.Fatal("no stand-in was shared")
	}
	for token, obj := range standIns.byToken {
		if len(obj) != 1 || fmt.Sprintf("%q", obj["cmd"]) != token {
			t.Errorf("stand-in of %s changed: %v", token, obj)
		}
	}
}

// A corpus naming more commands than are shared still gets a stand-in for
// each, and the shared ones stay bounded.
func TestSharedStandInsAreBounded(t *testing.T) {
	for i := range 2 * maxSharedStandIns {
		token := fmt.Sprintf(`"Name%d"`, i)
		obj, ok := standIn([]byte(`{"cmd": ` + token + `}`)).(map[string]any)
		if !ok || len(obj) != 1 || fmt.Sprintf("%q", obj["cmd"]) != token {
			t.Fatalf("stand-in of %s: %v", token, obj)
		}
	}
	standIns.RLock()
	defer standIns.RUnlock()
	if n := len(standIns.byToken); n > maxSharedStandIns {
		t.Errorf("%d stand-ins shared, bound %d", n, maxSharedStandIns)
	}
}
