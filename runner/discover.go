package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
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
// devices, sockets) are never opened: each is reported as a finding.
func discover(fsys fs.FS, display func(rel string) string) (discovered, error) {
	var d discovered
	for _, folder := range Folders {
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
		err = fs.WalkDir(fsys, folder, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				// An unreadable folder below the corpus: say so and go on.
				d.skipped = append(d.skipped, model.Finding{Kind: model.FindingSkippedFile, Path: display(p),
					Message: fmt.Sprintf("folder could not be read: %v", err)})
				if e != nil && e.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(e.Name(), ".json") {
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
		})
		if err != nil {
			return d, err
		}
	}
	sort.Strings(d.files)
	sort.SliceStable(d.skipped, func(i, j int) bool { return d.skipped[i].Path < d.skipped[j].Path })
	return d, nil
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
