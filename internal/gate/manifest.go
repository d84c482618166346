package gate

import (
	"errors"
	"io/fs"

	"github.com/drp2/drp2-fixtures/internal/manifest"
	"github.com/drp2/drp2-fixtures/model"
)

// ManifestCheck is a corpus compared with its manifest.
type ManifestCheck struct {
	// Cmp is the comparison as every report shows it: the manifest's
	// path for display and annotations, and whether any difference at all
	// fails the run (CheckClean), included.
	Cmp *model.ManifestCheck
	// results maps corpus-relative paths to display paths.
	results map[string]string
}

// compareManifest reads the manifest at path and compares the run's corpus
// with it. An unreadable or missing manifest is unusable input.
func (r *Resolved) compareManifest(run *model.Run, path string) (*ManifestCheck, error) {
	rec, err := r.readManifest(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("manifest %s does not exist: write it with drp2-fixtures manifest write", r.display(path))
	}
	if err != nil {
		return nil, err
	}
	cur, _, err := r.buildManifest(run)
	if err != nil {
		return nil, err
	}
	cmp := manifest.Compare(rec, cur)
	cmp.Path, cmp.CheckClean = r.display(path), r.CheckClean
	mc := &ManifestCheck{Cmp: cmp, results: map[string]string{}}
	for i := range run.Results {
		mc.results[run.Results[i].RelPath] = run.Results[i].Path
	}
	return mc, nil
}

// buildManifest records a run's corpus, with the fixtures it could not
// record.
func (r *Resolved) buildManifest(run *model.Run) (*manifest.Manifest, []string, error) {
	m, unusable, err := manifest.Build(run, r.corpusSource())
	if err != nil {
		return nil, nil, usagef("%w", err)
	}
	return m, unusable, nil
}

// readManifest reads and decodes the manifest at path, as every input file
// is read; a missing one is fs.ErrNotExist.
func (r *Resolved) readManifest(path string) (*manifest.Manifest, error) {
	data, err := r.readInput(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, usagef("manifest: %w", err)
	}
	rec, err := manifest.Decode(data)
	if err != nil {
		return nil, usagef("manifest %s: %w", r.display(path), err)
	}
	return rec, nil
}

// reasons are why the manifest comparison fails the run.
func (mc *ManifestCheck) reasons() []model.Reason {
	if mc == nil {
		return nil
	}
	var out []model.Reason
	if mc.Cmp.Violations > 0 {
		out = append(out, model.Reason{Kind: model.ReasonFreezeBroken, Subject: mc.Cmp.Path, Count: mc.Cmp.Violations})
	}
	// Under --check-clean, differences a freeze allows fail the run too;
	// when the freeze's violations are all there is, they alone decide.
	if mc.Cmp.CheckClean && mc.Cmp.Allowed() > 0 {
		out = append(out, model.Reason{Kind: model.ReasonUnclean, Subject: mc.Cmp.Path})
	}
	return out
}

// FixturePath is the display path of the fixture at the corpus-relative
// path rel, for the annotations of the comparison.
func (mc *ManifestCheck) FixturePath(rel string) string { return mc.results[rel] }

// model is the comparison as the model carries it to every report; nil
// without one.
func (mc *ManifestCheck) model() *model.ManifestCheck {
	if mc == nil {
		return nil
	}
	return mc.Cmp
}
