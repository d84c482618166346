package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Folders are the corpus folders searched for fixtures (RUNNER.md, Fixture
// Discovery). A fixture's folder never decides its class.
var Folders = model.Folders

// discovered is what a walk of the corpus found.
type discovered struct {
	// files are the corpus-relative slash paths of the fixtures, in
	// lexical order.
	files []string
	// skipped are files that look like fixtures but are not read as such.
	skipped []model.Finding
}

// discover walks the fixture folders of fsys. Only regular files ending in
// .json are fixtures. Symbolic links are never followed, whether they point
// inside or outside the corpus or at themselves, and special files (FIFOs,
// devices, sockets) are never opened: each is reported as a finding. A
// folder of the root named as a corpus folder but for case (Positive/), and
// a file ending in .json but for case (x.JSON), are taken as fixtures too,
// each then refused as a corpus error (misnamed): a rename must not make a
// fixture vanish.
func discover(fsys fs.FS, display func(rel string) string) (discovered, error) {
	var d discovered
	folders, err := corpusFolders(fsys)
	if err != nil {
		return d, err
	}
	// Walked in the order of their names, so that the paths come out in
	// order (below).
	slices.Sort(folders)
	for _, folder := range folders {
		mode, err := lstat(fsys, folder)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return d, fmt.Errorf("corpus folder %s: %w", folder, err)
		}
		if mode&fs.ModeSymlink != 0 {
			// A class folder that is a link is no different from a linked
			// file: whoever wrote the corpus could point it anywhere on the
			// machine (positive -> /), so it is never followed.
			d.skipped = append(d.skipped, model.Finding{Kind: model.FindingSkippedFile, Path: display(folder),
				Message: "the class folder is a symbolic link, not followed: fixtures must lie in a real folder inside the corpus"})
			continue
		}
		if !mode.IsDir() {
			continue
		}
		if err := fs.WalkDir(fsys, folder, d.visit(display)); err != nil {
			return d, err
		}
	}
	// The walk gives each folder's paths in order, and the folders are
	// walked in order, unless a folder is named like a file's prefix
	// ("a" beside "a.json", whose paths the walk gives first).
	if !slices.IsSorted(d.files) {
		sort.Strings(d.files)
	}
	sort.SliceStable(d.skipped, func(i, j int) bool { return d.skipped[i].Path < d.skipped[j].Path })
	return d, nil
}

// visit is the walk of one corpus folder, adding what it finds to d.
func (d *discovered) visit(display func(rel string) string) fs.WalkDirFunc {
	return func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			// An unreadable folder below the corpus: say so and go on.
			d.skipped = append(d.skipped, model.Finding{Kind: model.FindingSkippedFile, Path: display(p),
				Message: fmt.Sprintf("folder could not be read: %v", err)})
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		ext := path.Ext(e.Name())
		if !strings.EqualFold(ext, ".json") || (ext != ".json" && e.IsDir()) {
			return nil
		}
		mode := e.Type()
		switch {
		case mode.IsRegular():
			d.files = append(d.files, p)
		case mode&fs.ModeSymlink != 0:
			d.skipped = append(d.skipped, model.Finding{Kind: model.FindingSkippedFile, Path: display(p),
				Message: "symbolic link not followed: a fixture must be a regular file inside the corpus"})
		case mode.IsDir():
			d.skipped = append(d.skipped, model.Finding{Kind: model.FindingSkippedFile, Path: display(p),
				Message: "a folder named like a fixture: only regular .json files are fixtures (its contents are still searched)"})
		default:
			d.skipped = append(d.skipped, model.Finding{Kind: model.FindingSkippedFile, Path: display(p),
				Message: fmt.Sprintf("not a regular file (%s): not opened", mode.Type())})
		}
		return nil
	}
}

// corpusFolders are the folders of the root to walk: the corpus folders,
// and each folder named as one but for case. On a file system that folds
// case, the folder found under the other case is the corpus folder
// itself, walked once under its right name.
func corpusFolders(fsys fs.FS) ([]string, error) {
	folders := append([]string(nil), Folders...)
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("corpus root: %w", err)
	}
	listed := map[string]bool{}
	for _, e := range entries {
		listed[e.Name()] = true
	}
	for _, e := range entries {
		right, misnamed := rightFolder(e.Name())
		if !misnamed || !(e.IsDir() || e.Type()&fs.ModeSymlink != 0) {
			continue // a link is walked to be reported as one
		}
		if _, err := lstat(fsys, right); !listed[right] && err == nil {
			continue // the same folder, on a file system that folds case
		}
		folders = append(folders, e.Name())
	}
	return folders, nil
}

// rightFolder is the corpus folder whose name equals name but for case,
// and whether name differs from it ("Positive": "positive", true).
func rightFolder(name string) (right string, misnamed bool) {
	for _, f := range Folders {
		if strings.EqualFold(name, f) {
			return f, name != f
		}
	}
	return "", false
}

// misnamed says why a discovered file is not a fixture as named: its
// folder is a corpus folder's name but for case, or its extension is
// .json but for case; "" when it is named right. RUNNER.md names the
// folders and the extension, and a case-sensitive file system (GitHub's
// runners) tells the names apart: the author renames the file rather than
// the runner guessing what was meant.
func misnamed(rel string) string {
	if right, bad := rightFolder(folderOf(rel)); bad {
		return fmt.Sprintf("the folder %s/ is not a corpus folder, whose name is %s/ (names are case-sensitive): rename the folder", folderOf(rel), right)
	}
	if ext := path.Ext(rel); ext != ".json" {
		return fmt.Sprintf("the extension %s is not .json, the only one a fixture has (names are case-sensitive): rename the file", ext)
	}
	return ""
}

// lstat returns the type of name without following a final link. File
// systems that know no links (embed.FS, fstest.MapFS without link modes)
// fall back to Stat, which is then the same thing.
func lstat(fsys fs.FS, name string) (fs.FileMode, error) {
	if l, ok := fsys.(fs.ReadLinkFS); ok {
		st, err := l.Lstat(name)
		if err != nil {
			return 0, err
		}
		return st.Mode(), nil
	}
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return 0, err
	}
	return st.Mode(), nil
}

// PathFilter keeps the fixtures at or below any of the corpus-relative
// prefixes; an empty filter keeps everything.
type PathFilter []string

func (f PathFilter) Keep(rel string) bool {
	if len(f) == 0 {
		return true
	}
	for _, p := range f {
		if p == "." || rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

// folderOf returns the first element of a corpus-relative path.
func folderOf(rel string) string {
	first, _, _ := strings.Cut(rel, "/")
	return first
}

// stem is a fixture file's name without .json.
func stem(rel string) string { return strings.TrimSuffix(path.Base(rel), ".json") }
