package level3

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/raster"
)

// Folder is where a corpus keeps what Level 3 reads, beside positive/:
// no runner takes a file below it for a fixture.
const Folder = "level3"

// Bounds of what a corpus's Level 3 files may ask: the pull request
// writes them.
const (
	maxImages     = 64   // image descriptions in one side file
	maxReadback   = 4096 // the highest readback index a description names
	maxTolerances = 4096 // rules in tolerances.json
)

// image is one described image: the readback it is and how to decode it.
type image struct {
	Readback int `json:"readback"`
	raster.Description
}

// described is what a fixture's side file says: its images, or why they
// cannot be read (the file and the field).
type described struct {
	images []image
	err    string
}

// descriptionPath is the side file of the fixture at corpus path rel.
func descriptionPath(rel string) string { return Folder + "/images/" + rel }

// readDescription reads the side file of the fixture rel; nil when it
// has none.
func readDescription(read func(string) ([]byte, error), rel string) *described {
	file := descriptionPath(rel)
	data, err := read(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &described{err: fmt.Sprintf("%s: %v", file, err)}
	}
	images, err := parseDescription(data)
	if err != nil {
		return &described{err: file + ": " + err.Error()}
	}
	return &described{images: images}
}

// parseDescription reads {"images": [...]}, each entry held to the bounds
// of raster.Description and naming its place when it is not.
func parseDescription(data []byte) ([]image, error) {
	var doc struct {
		Images []json.RawMessage `json:"images"`
	}
	if err := strictDecode(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Images) == 0 {
		return nil, errors.New("images: the list is empty or absent")
	}
	if len(doc.Images) > maxImages {
		return nil, fmt.Errorf("images: %d entries, at most %d", len(doc.Images), maxImages)
	}
	var out []image
	seen := map[int]bool{}
	for i, raw := range doc.Images {
		var im image
		if err := strictDecode(raw, &im); err != nil {
			return nil, fmt.Errorf("images[%d]: %w", i, err)
		}
		switch {
		case im.Readback < 0 || im.Readback > maxReadback:
			return nil, fmt.Errorf("images[%d].readback: %d is not between 0 and %d", i, im.Readback, maxReadback)
		case seen[im.Readback]:
			return nil, fmt.Errorf("images[%d].readback: readback %d is described twice", i, im.Readback)
		}
		seen[im.Readback] = true
		if _, err := im.Size(); err != nil {
			return nil, fmt.Errorf("images[%d].%w", i, err)
		}
		out = append(out, im)
	}
	return out, nil
}

// strictDecode decodes one JSON value into v, refusing unknown fields and
// anything after the value.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more after the JSON value")
	}
	return nil
}

// rule is one entry of tolerances.json: the tolerance of a backend (""
// for any), a folder or a fixture (neither for the whole corpus).
type rule struct {
	Backend string `json:"backend,omitempty"`
	Folder  string `json:"folder,omitempty"`
	Fixture string `json:"fixture,omitempty"`
	raster.Tolerance
}

// tolerancesPath is the corpus's tolerances file.
const tolerancesPath = Folder + "/tolerances.json"

// readTolerances reads the corpus's tolerance rules; none when it has no
// file.
func readTolerances(read func(string) ([]byte, error)) ([]rule, error) {
	data, err := read(tolerancesPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tolerancesPath, err)
	}
	rules, err := parseTolerances(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tolerancesPath, err)
	}
	return rules, nil
}

func parseTolerances(data []byte) ([]rule, error) {
	var doc struct {
		Tolerances []json.RawMessage `json:"tolerances"`
	}
	if err := strictDecode(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Tolerances) > maxTolerances {
		return nil, fmt.Errorf("tolerances: %d entries, at most %d", len(doc.Tolerances), maxTolerances)
	}
	var rules []rule
	seen := map[[3]string]bool{}
	for i, raw := range doc.Tolerances {
		var r rule
		if err := strictDecode(raw, &r); err != nil {
			return nil, fmt.Errorf("tolerances[%d]: %w", i, err)
		}
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("tolerances[%d].%w", i, err)
		}
		key := [3]string{r.Backend, r.Folder, r.Fixture}
		if seen[key] {
			return nil, fmt.Errorf("tolerances[%d]: a second rule for the same backend, folder and fixture", i)
		}
		seen[key] = true
		rules = append(rules, r)
	}
	return rules, nil
}

// check holds a rule to what it may name: a backend as Slug writes one, a
// corpus path that stays in the corpus, one of folder and fixture.
func (r rule) check() error {
	switch {
	case r.Backend != "" && Slug(r.Backend) != r.Backend:
		return fmt.Errorf("backend: %q is not a backend as the platform key writes it (%q)", cut(r.Backend), Slug(r.Backend))
	case r.Folder != "" && r.Fixture != "":
		return errors.New("fixture: a rule names a folder or a fixture, not both")
	case r.Folder != "" && !corpusPath(r.Folder):
		return fmt.Errorf("folder: %q is not a corpus-relative path without . or .. elements", cut(r.Folder))
	case r.Fixture != "" && (!corpusPath(r.Fixture) || !strings.HasSuffix(r.Fixture, ".json")):
		return fmt.Errorf("fixture: %q is not the corpus path of a fixture (relative, no . or .. elements, ending .json)", cut(r.Fixture))
	}
	if err := r.Tolerance.Check(); err != nil {
		return err
	}
	return nil
}

// corpusPath says whether p names a file or folder inside the corpus.
func corpusPath(p string) bool { return fs.ValidPath(p) && p != "." }

// cut bounds a value quoted back in an error.
func cut(s string) string {
	const most = 64
	if len(s) > most {
		return strings.ToValidUTF8(s[:most], "") + "..."
	}
	return s
}

// toleranceFor is the rule that applies to the fixture rel on backend:
// a fixture's rule before a folder's (the deeper folder first) before the
// corpus's; at each, the backend's own before any backend's. The zero
// tolerance (exact) when none applies.
func toleranceFor(rules []rule, backend, rel string) raster.Tolerance {
	best, score := raster.Tolerance{}, -1
	for _, r := range rules {
		if r.Backend != "" && r.Backend != backend {
			continue
		}
		s := 0
		switch {
		case r.Fixture != "":
			if r.Fixture != rel {
				continue
			}
			s = 1 << 20
		case r.Folder != "":
			if !strings.HasPrefix(rel, r.Folder+"/") {
				continue
			}
			s = 2 * (strings.Count(r.Folder, "/") + 1)
		}
		if r.Backend != "" {
			s++
		}
		if s > score {
			best, score = r.Tolerance, s
		}
	}
	return best
}

// toleranceText is a tolerance as tolerances.json spells its fields.
func toleranceText(t raster.Tolerance) string {
	b, _ := json.Marshal(t)
	if string(b) == "{}" {
		return "exact"
	}
	return string(b)
}

// refBase is the path of a reference without its extension.
func refBase(backend, key, rel string, readback int) string {
	return path.Join(Folder, "refs", backend, key, strings.TrimSuffix(rel, ".json"), fmt.Sprint(readback))
}
