package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drp2/drp2-fixtures/internal/raster"
	"github.com/drp2/drp2-fixtures/internal/testkit"
)

// TestLevel3Images runs the Python example, which answers every readback
// with zeros, over a corpus that describes its readback as a 2x2 image:
// with no reference the run fails on level3 alone and leaves the image
// beside the JSON report; --update-refs writes the reference of its
// platform and nothing else; the next run passes and writes no image;
// without fail-on level3 nothing fails.
func TestLevel3Images(t *testing.T) {
	py := testkit.PythonExample(t)
	dir := testkit.Corpus(t, testkit.Merge(harnessCorpus, map[string]string{
		"fixtures/level3/images/positive/readback.json": `{"images": [{"readback": 0, "width": 2, "height": 2, "format": "rgba8unorm"}]}`,
	}))
	args := []string{"run", "--implementation", py, "--fail-on", "level3", "--json-out", "out/report.json"}
	code, stdout, stderr := run(t, dir, args...)
	want := "Level 3: the image of readback 0 of positive/readback.json by python-example 0.1 fails: no reference for python-example/any or a less specific key"
	if code != ExitMismatch || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	actual := filepath.Join(dir, "out/report.json.images/python-example/any/positive/readback/0.actual.png")
	if _, err := os.Stat(actual); err != nil || !strings.Contains(stdout, "actual python-example/any/positive/readback/0.actual.png") {
		t.Errorf("the image beside the report: %v\n%s", err, stdout)
	}
	ref := filepath.Join(dir, "fixtures/level3/refs/python-example/any/positive/readback/0.png")
	if _, err := os.Stat(ref); err == nil {
		t.Fatal("a normal run wrote a reference")
	}

	if code, stdout, _ = run(t, dir, append(args, "--update-refs")...); !strings.Contains(stdout, "reference written: level3/refs/python-example/any/positive/readback/0.png (none before)") {
		t.Errorf("update: exit %d\n%s", code, stdout)
	}
	written, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr = run(t, dir, args...); code != 0 || !strings.Contains(stdout, "python-example 0.1: 1 image: 1 identical") {
		t.Errorf("after the update: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out/report.json.images")); err == nil {
		t.Error("an identical image was written")
	}
	if again, _ := os.ReadFile(ref); !bytes.Equal(again, written) {
		t.Error("a normal run changed the reference")
	}

	// A reference that differs by one unit in one channel: exact fails
	// naming the bound, a tolerance of 1 passes, and without fail-on
	// level3 the run passes whatever Level 3 says.
	var buf bytes.Buffer
	if err := raster.WritePNG(&buf, raster.Image{Width: 2, Height: 2, Format: raster.RGBA8Unorm, Pix: []byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, dir, map[string]string{"fixtures/level3/refs/python-example/any/positive/readback/0.png": buf.String()})
	if code, _, stderr = run(t, dir, args...); code != ExitMismatch || !strings.Contains(stderr, "by python-example 0.1 fails: max_channel_delta 1 > 0") {
		t.Errorf("one unit off, exact: exit %d\n%s", code, stderr)
	}
	if code, _, _ = run(t, dir, "run", "--implementation", py, "--fail-on", "empty"); code != 0 {
		t.Errorf("without fail-on level3: exit %d", code)
	}
	testkit.WriteFiles(t, dir, map[string]string{"fixtures/level3/tolerances.json": `{"tolerances": [{"backend": "python-example", "max_channel_delta": 1}]}`})
	if code, stdout, _ = run(t, dir, args...); code != 0 || !strings.Contains(stdout, "1 image: 1 within") {
		t.Errorf("within 1: exit %d\n%s", code, stdout)
	}
}

// TestSiteShowsLevel3Images: a run whose image is one unit off its
// reference leaves the actual and diff images beside its JSON report; the
// site built from that report copies them and the reference (read from
// the corpus the report names) under names of its own, and the fixture's
// page shows the three side by side.
func TestSiteShowsLevel3Images(t *testing.T) {
	py := testkit.PythonExample(t)
	var buf bytes.Buffer
	if err := raster.WritePNG(&buf, raster.Image{Width: 2, Height: 2, Format: raster.RGBA8Unorm, Pix: []byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	dir := testkit.Corpus(t, testkit.Merge(harnessCorpus, map[string]string{
		"fixtures/level3/images/positive/readback.json":                   `{"images": [{"readback": 0, "width": 2, "height": 2, "format": "rgba8unorm"}]}`,
		"fixtures/level3/refs/python-example/any/positive/readback/0.png": buf.String(),
	}))
	run(t, dir, "run", "--implementation", py, "--json-out", "out/report.json")
	if code, out, errs := run(t, dir, "site", "--out", "site", "out/report.json"); code != ExitOK {
		t.Fatalf("site: exit %d\n%s\n%s", code, out, errs)
	}
	tree := readTree(t, filepath.Join(dir, "site"))
	copied := 0
	for p, data := range tree {
		if strings.HasPrefix(p, "images/") {
			copied++
			if !bytes.HasPrefix(data, []byte("\x89PNG")) {
				t.Errorf("%s is not a PNG", p)
			}
		}
	}
	var page string
	for p, data := range tree {
		if strings.HasPrefix(p, "fixture/positive-readback-") {
			page = string(data)
		}
	}
	if copied != 3 || strings.Count(page, `<img src="../images/`) != 3 || !strings.Contains(page, "max_channel_delta 1 &gt; 0") {
		t.Errorf("%d images copied; the fixture's page:\n%s", copied, page)
	}
}
