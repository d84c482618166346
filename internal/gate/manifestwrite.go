package gate

// The manifest use cases: write records the corpus in a manifest, check
// compares the corpus with the one recorded.

import (
	"bytes"
	"context"
	"errors"
	"os"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/manifest"
	"github.com/drp2/drp2-fixtures/model"
)

// ManifestWrite is what manifest write is asked: the corpus, where the
// manifest goes ("" for <corpus>/manifest.json, "-" for standard output),
// and its freeze.
type ManifestWrite struct {
	Source
	Out string
	// Frozen is the freeze to declare when FrozenSet; otherwise the
	// manifest keeps the freeze of the one it replaces.
	Frozen, FrozenSet bool
}

// ManifestWritten is what manifest write did, or why it refused.
type ManifestWritten struct {
	// Data is the manifest, encoded; Path where it was written ("" for
	// standard output, which the front end writes), Shown as it is named.
	Data        []byte
	Path, Shown string
	Fixtures    int
	DRP2Version string
	Frozen      bool
	// Unusable are the fixtures a manifest could not record: nothing was
	// written.
	Unusable []string
	// Broken is the frozen manifest at Path that the corpus breaks:
	// nothing was written, since re-recording would launder the change.
	Broken *model.ManifestCheck
}

// manifestRun runs the whole corpus for a manifest, without the semantic
// checker: a manifest records files and expectations, not verdicts.
func manifestRun(ctx context.Context, env Env, src Source) (*Resolved, *model.Run, error) {
	r, out, err := run(ctx, env, job{RunRequest: RunRequest{Source: src}, noSemantics: true})
	if err != nil {
		return nil, nil, err
	}
	// The whole run: a manifest records every fixture as it is.
	return r, out.judged, nil
}

// WriteManifest records the corpus in a manifest.
func WriteManifest(ctx context.Context, env Env, req ManifestWrite) (*ManifestWritten, error) {
	r, run, err := manifestRun(ctx, env, req.Source)
	if err != nil {
		return nil, err
	}
	m, unusable, err := r.buildManifest(run)
	if err != nil {
		return nil, err
	}
	if len(unusable) > 0 {
		return &ManifestWritten{Unusable: unusable}, nil
	}
	w := &ManifestWritten{}
	if req.Out != "-" {
		if w.Path, err = r.manifestPath(req.Out, "-o"); err != nil {
			return nil, err
		}
		w.Shown = r.display(w.Path)
	}
	m.Frozen = req.Frozen
	if w.Path != "" {
		if w.Broken, err = r.keepFreeze(m, w.Path, req.FrozenSet); err != nil || w.Broken != nil {
			return w, err
		}
	}
	var b bytes.Buffer
	if err := manifest.Encode(&b, m); err != nil {
		return nil, err
	}
	w.Data, w.Fixtures, w.DRP2Version, w.Frozen = b.Bytes(), len(m.Fixtures), m.DRP2Version, m.Frozen
	if w.Path != "" {
		if err := r.workspace().WriteFile(w.Path, r.env.RedactBytes(w.Data)); err != nil {
			return nil, exit.Errorf(exit.Record, "write manifest: %w", err)
		}
	}
	return w, nil
}

// keepFreeze compares the manifest about to be written with the one at
// path: re-recording a frozen manifest over changes that break the freeze
// would launder them, so it refuses (the comparison). Unless the freeze
// was given, the new manifest keeps the old one's.
func (r *Resolved) keepFreeze(m *manifest.Manifest, path string, frozenSet bool) (*model.ManifestCheck, error) {
	rec, err := r.readManifest(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !frozenSet {
		m.Frozen = rec.Frozen
	}
	if cmp := manifest.Compare(rec, m); rec.Frozen && cmp.Violations > 0 {
		cmp.Path = r.display(path)
		return cmp, nil
	}
	return nil, nil
}

// CheckManifest compares the corpus with its manifest (path, or
// <corpus>/manifest.json): the manifest check use case.
func CheckManifest(ctx context.Context, env Env, src Source, path string) (*ManifestCheck, error) {
	r, run, err := manifestRun(ctx, env, src)
	if err != nil {
		return nil, err
	}
	p, err := r.manifestPath(path, "--manifest")
	if err != nil {
		return nil, err
	}
	return r.compareManifest(run, p)
}
