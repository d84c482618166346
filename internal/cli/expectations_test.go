package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/golden"
)

// TestExpectationsUpdate: the roll over the reports of two devices, a
// report that cannot be read among them, proposes a list whose entries
// name the device that failed (or none when both did), retires an entry
// that passed --retire-after times on every device, keeps a KEEP block,
// prints the diff (golden) and writes the file, the same bytes each
// time; check then names the entries without a bug link, and exits 1.
func TestExpectationsUpdate(t *testing.T) {
	dir, names := fakeCorpus(t, 4)
	list := "# rt's expectations\n" +
		"rt " + rel(names[0]) + " fail # https://bugs.example/1\n" +
		"# KEEP\nrt " + rel(names[3]) + " flaky # https://bugs.example/3\n# KEEP END\n"
	writeFile(t, filepath.Join(dir, "rt.txt"), list)
	swiftshader := fakeSpec{Name: "rt", Vendor: "Google", Device: "SwiftShader Device (Subzero)", Fail: []string{names[1]}}
	nvidia := fakeSpec{Name: "rt", Vendor: "NVIDIA", Device: "GeForce RTX 4090", Fail: []string{names[1], names[2]}}
	for i, spec := range []fakeSpec{swiftshader, nvidia, swiftshader, nvidia} {
		out := filepath.Join("reports", "r"+string(rune('1'+i))+".json")
		if code, stdout, stderr := run(t, dir, "run", "--implementation", fake(t, spec), "--json-out", out); code != ExitMismatch {
			t.Fatalf("run %d: exit %d\n%s\n%s", i, code, stdout, stderr)
		}
	}
	writeFile(t, filepath.Join(dir, "reports", "r0-broken.json"), "{\"summary\": ")
	args := []string{"expectations", "update", "--expectations", "rt.txt", "--retire-after", "2", "--write", "rt.txt", "reports"}
	code, stdout, stderr := run(t, dir, args...)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	golden.Check(t, "expectations/update.txt", []byte("$ drp2-fixtures "+strings.Join(args, " ")+"\n"+stdout+"--- stderr\n"+stderr))
	written, _ := os.ReadFile(filepath.Join(dir, "rt.txt"))
	golden.Check(t, "expectations/rt.txt", written)

	// Again, from the list as written: nothing more to change.
	if code, again, _ := run(t, dir, args...); code != ExitOK || again != "" {
		t.Errorf("second roll: exit %d, diff:\n%s", code, again)
	}
	code, stdout, stderr = run(t, dir, "expectations", "check", "--bug-pattern", `https://bugs\.example/\d+`, "rt.txt")
	want := "drp2-fixtures expectations check: rt.txt:5: expectation fail for " + rel(names[1]) + " has no bug link matching https://bugs\\.example/\\d+ in its reason\n" +
		"drp2-fixtures expectations check: rt.txt:6: expectation fail for " + rel(names[2]) + " has no bug link matching https://bugs\\.example/\\d+ in its reason\n"
	if code != ExitMismatch || stdout != "" || stderr != want {
		t.Errorf("check: exit %d\n%s\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
	if code, _, stderr = run(t, dir, "expectations", "update", "nothing.json"); code == ExitOK || code == ExitMismatch || !strings.Contains(stderr, "nothing.json") {
		t.Errorf("no report: exit %d\n%s", code, stderr)
	}
}
