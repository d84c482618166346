// Package site renders the DRP2 conformance site: static pages, badges and
// JSON data built from the JSON reports implementations publish, as
// Bowtie and wpt.fyi build theirs. It is a pure renderer: runs in, files
// out, the same bytes for the same reports; the front end reads the
// reports and writes the files.
//
// An implementation is known by its name and the device it ran on (its
// adapter's vendor, device and driver): its reports form one series
// across corpus versions, a corpus change being an event of the series,
// and a fixture's history runs on while its commands and expectation
// stay the same (a description edit changes neither). A series belongs
// to the repository its reports record: anyone can name an
// implementation as another does, so reports of another repository, or
// of none, form series of their own. Every text a report carries (names,
// versions, adapter strings, fixture paths, messages) is published by
// anyone, so every sink escapes it: html/template for pages, XML escaping
// for badges, encoding/json for data, and file names are made of a slug
// and a hash only.
package site

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/model"
)

// Report is one JSON report read back, and the file it came from.
type Report struct {
	Source string
	Run    *model.Run
}

// Options are what the renderer cannot know by itself.
type Options struct {
	// Compare compares two runs fixture by fixture, as diff does (the
	// front end gives internal/baseline's comparison); nil shows no
	// difference between an implementation's last two reports.
	Compare func(base, head *model.Run, name string) *model.Comparison
	// Problems are the reports that could not be used, each naming its
	// file; the index lists them.
	Problems []string
	// Require are the implementations, and devices, whose reports the
	// site waits for: one no report meets is pending, on the index and in
	// Pending, as a release campaign waits for each machine it expects.
	Require []model.Requirement
	// ImageFile reads a file a report's Level 3 image check names (see
	// ImageKind), for the fixture's page to show; nil shows none.
	ImageFile func(kind ImageKind, source, corpusRoot, rel string) ([]byte, error)
}

// File is one file of the site, by its slash path below the site's root.
type File struct {
	Path string
	Data []byte
}

// BuiltIn is the name the built-in validator goes by: a plain run, with
// no implementation, is the validator's own result.
const BuiltIn = "drp2-fixtures"

// entry is one implementation in one report.
type entry struct {
	source                   string
	started                  time.Time
	commit, repository, tool string
	runURL                   string
	corpus, corpusRoot       string
	// im is the implementation without its prose; its Results are kept
	// for the series' last two reports only (the latest verdicts and the
	// comparison of the two), marks hold every report's verdicts.
	im    *model.Implementation
	marks []mark
	// commandSchema and fixtureSchema are the report's, for comparisons.
	commandSchema, fixtureSchema model.SchemaSource
	level                        levels
	// sameTime marks an entry whose start equals another's of its series:
	// ordered by file name, and said so.
	sameTime bool
}

// levels are an entry's counts at each conformance level.
type levels struct {
	L1Passed, L1Run       int
	L1                    bool
	L2Passed, L2Checked   int
	L3Agreed, L3Compared  int
	Failed, NoVerdict, NC int
}

// mark is one fixture's verdict in one report, all a history needs: its
// texts are interned, so that ten thousand reports of the same fixtures
// share them.
type mark struct {
	path string
	// digest is the fixture's verdict-relevant digest: its commands and
	// expected block, not its file, whose description may change alone.
	digest  string
	verdict string
	// got is what the implementation got; reason the expectations entry's
	// reason and place, for a result an entry covers.
	got, reason string
}

// series is one implementation on one device, across corpus versions,
// its entries oldest first.
type series struct {
	key, slug    string
	name, device string
	// repository is the repository the series' reports record ("" when
	// they record none).
	repository string
	entries    []*entry
	// withResults are the entries that still hold their results: the
	// latest two added so far.
	withResults []*entry
}

func (s *series) latest() *entry { return s.entries[len(s.entries)-1] }

// corpus is one version of the corpus, by its digest: the reports
// measured on it.
type corpus struct {
	digest, root  string
	drp2          []string
	fixtures      int
	first, latest time.Time
	reports       int
	// series are those whose latest report is on this corpus.
	series []*series
}

// Builder gathers reports one at a time, keeping of each only what the
// site shows, so that a thousand reports fit in a small memory.
type Builder struct {
	o        Options
	bySeries map[string]*series
	reports  int
	interned map[string]string
}

// AddRun adds the run read from the file source (Add).
func (b *Builder) AddRun(source string, run *model.Run) { b.Add(Report{Source: source, Run: run}) }

// Reports is how many reports were added.
func (b *Builder) Reports() int { return b.reports }

// NewBuilder starts a site.
func NewBuilder(o Options) *Builder {
	return &Builder{o: o, bySeries: map[string]*series{}, interned: map[string]string{}}
}

// intern is s, shared with every equal text the builder holds.
func (b *Builder) intern(s string) string {
	if v, ok := b.interned[s]; ok {
		return v
	}
	b.interned[s] = s
	return s
}

// Add adds one report. The order reports are added in does not matter.
func (b *Builder) Add(r Report) {
	b.reports++
	for _, e := range entries(r) {
		e.marks = b.marksOf(e.im.Results)
		key := seriesKey(e)
		se := b.bySeries[key]
		if se == nil {
			se = &series{key: key, slug: slug(e.im.Name+" "+device(e.im.Adapter), key), name: e.im.Name, device: device(e.im.Adapter),
				repository: e.repository}
			b.bySeries[key] = se
		}
		se.entries = append(se.entries, e)
		se.keepLastResults()
	}
}

func (b *Builder) marksOf(results []model.Result) []mark {
	out := make([]mark, len(results))
	for i := range results {
		r := &results[i]
		out[i] = mark{path: b.intern(r.RelPath), digest: b.intern(r.Digest.Commands + " " + r.Digest.Expected), verdict: verdictOf(r),
			got: b.intern(gotText(r.Actual)), reason: b.intern(listingText(r))}
	}
	return out
}

// keepLastResults drops the results of every entry but the two latest:
// the marks hold what the history needs, and a thousand reports' results
// would not fit in the memory the site is built in.
func (se *series) keepLastResults() {
	se.withResults = append(se.withResults, se.entries[len(se.entries)-1])
	if len(se.withResults) <= 2 {
		return
	}
	sort.Slice(se.withResults, func(a, b int) bool { return before(se.withResults[a], se.withResults[b]) })
	se.withResults[0].im.Results, se.withResults[0].im.Images = nil, nil
	se.withResults = se.withResults[1:]
}

// Notes are what the index says of reports it could use but had to
// order by a guess: two reports of one series with the same start, whose
// latest is the file names' choice. The command line prints them too, so
// that a build's log shows what its index does.
func (b *Builder) Notes() []string { return sameTimeNotes(b.series()) }

// Pending words the requirements no report added meets, in the order
// given: "NAME", or "NAME on a device matching GLOB".
func (b *Builder) Pending() []string {
	var out []string
	for _, req := range b.o.Require {
		if !b.met(req) {
			words := req.Name
			if req.Device != "" {
				words += " on a device matching " + req.Device
			}
			out = append(out, words)
		}
	}
	return out
}

// met says whether a report of any series meets req.
func (b *Builder) met(req model.Requirement) bool {
	for _, se := range b.bySeries {
		for _, e := range se.entries {
			if req.MetBy(e.im) {
				return true
			}
		}
	}
	return false
}

// Files renders the site: every page, badge and data file, in path
// order. problems are the reports that could not be used, each naming
// its file, for the index to list.
func (b *Builder) Files(problems []string) []File {
	all := b.series()
	s := &siteData{series: all, corpora: corpora(all), problems: problems, fixtures: fixturesOf(all)}
	s.notes = sameTimeNotes(all)
	s.pending = b.Pending()
	for _, se := range all {
		s.diffs = append(s.diffs, difference(se, b.o.Compare))
	}
	s.gatherImages(b.o.ImageFile)
	files := s.render()
	sort.Slice(files, func(a, b int) bool { return files[a].Path < files[b].Path })
	return files
}

// Build renders the site of reports (NewBuilder, Add, Files).
func Build(reports []Report, o Options) []File {
	b := NewBuilder(o)
	for _, r := range reports {
		b.Add(r)
	}
	return b.Files(o.Problems)
}

// group sorts the entries of every report into series.
func group(reports []Report) []*series {
	b := NewBuilder(Options{})
	for _, r := range reports {
		b.Add(r)
	}
	return b.series()
}

// series are the series, each in time order, by key.
func (b *Builder) series() []*series {
	out := make([]*series, 0, len(b.bySeries))
	for _, se := range b.bySeries {
		sort.SliceStable(se.entries, func(a, b int) bool { return before(se.entries[a], se.entries[b]) })
		for i := 1; i < len(se.entries); i++ {
			if se.entries[i].started.Equal(se.entries[i-1].started) {
				se.entries[i].sameTime, se.entries[i-1].sameTime = true, true
			}
		}
		out = append(out, se)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].key < out[b].key })
	return out
}

// before orders the entries of a series: by start, then, for two reports
// of the same start, by file name, so that the order never depends on the
// order the reports were given in.
func before(x, y *entry) bool {
	if !x.started.Equal(y.started) {
		return x.started.Before(y.started)
	}
	return x.source < y.source
}

// entries are the implementations of one report, the built-in validator
// for a plain run.
func entries(r Report) []*entry {
	run := r.Run
	impls := run.Implementations
	var parity []model.ParityRow
	if len(impls) > 0 {
		parity = model.Parity(run)
	} else {
		impls = []model.Implementation{{Name: BuiltIn, Version: run.ToolVersion, DRP2Versions: []string{"2.0"},
			Results: run.Results, Summary: run.Summary}}
	}
	out := make([]*entry, 0, len(impls))
	for i := range impls {
		im := &impls[i]
		e := &entry{source: r.Source, started: run.Started.UTC(), commit: run.Commit, repository: run.Repository, runURL: run.RunURL,
			tool: run.ToolVersion, corpus: run.CorpusDigest, corpusRoot: run.CorpusRoot, im: slim(im),
			commandSchema: run.CommandSchema, fixtureSchema: run.FixtureSchema}
		e.level = measure(im, parity)
		out = append(out, e)
	}
	return out
}

// slim is what the site keeps of an implementation's results: who it is
// and each fixture's verdict, expectation, expectations entry and
// digests, without the prose (messages, diagnostics, stderr, readback
// bytes) no page shows.
func slim(im *model.Implementation) *model.Implementation {
	out := &model.Implementation{Command: im.Command, Name: im.Name, Version: im.Version, DRP2Versions: im.DRP2Versions,
		Adapter: im.Adapter, Error: im.Error, Results: make([]model.Result, len(im.Results)), Images: failingImages(im.Images)}
	for i := range im.Results {
		r := &im.Results[i]
		a := r.Actual
		a.Message, a.Rule = "", ""
		out.Results[i] = model.Result{Path: r.RelPath, RelPath: r.RelPath, Folder: r.Folder, Name: r.Name, Class: r.Class,
			Expected: r.Expected, Actual: a, Passed: r.Passed, Digest: r.Digest, KnownFailure: r.KnownFailure, Listing: r.Listing, Attempts: r.Attempts}
	}
	return out
}

func measure(im *model.Implementation, parity []model.ParityRow) levels {
	l := levels{L1Passed: im.Summary.Passed, L1Run: im.Summary.Run, L1: im.Level1(),
		Failed: im.Summary.Failed, NoVerdict: im.HarnessErrors(), NC: im.NotClaimedCount()}
	l.L2Checked, l.L2Passed = im.Level2Counts()
	if parity != nil {
		l.L3Compared, l.L3Agreed = model.ParityCounts(parity, im.Label())
	}
	return l
}

// seriesKey is an implementation's identity: its name (its command when
// it gave none), the device it ran on (vendor, device, driver), and the
// repository that published it; not the corpus, whose versions a series
// spans. The name is anyone's to claim; the repository keeps another's
// reports out of its series.
func seriesKey(e *entry) string {
	name := e.im.Name
	if name == "" {
		name = e.im.Command
	}
	key := name + "\x00" + adapterKey(e.im.Adapter)
	if e.repository != "" {
		key += "\x00" + e.repository
	}
	return key
}

// adapterKey is the device a series is on: an architecture or platform
// named differently by another release of the same driver does not start
// another series.
func adapterKey(a *model.GPUAdapter) string {
	if a == nil {
		return ""
	}
	return strings.Join([]string{a.Vendor, a.Device, a.Driver}, "\x00")
}

// device is the adapter in a few words: vendor and device (the
// architecture when it named no device), and driver.
func device(a *model.GPUAdapter) string {
	if a == nil {
		return ""
	}
	name := a.Device
	if name == "" {
		name = a.Architecture
	}
	if a.Vendor != "" && !strings.Contains(strings.ToLower(name), strings.ToLower(a.Vendor)) {
		name = strings.TrimSpace(a.Vendor + " " + name)
	}
	if a.Driver != "" {
		if name == "" {
			return a.Driver
		}
		return name + " (" + a.Driver + ")"
	}
	if name == "" {
		return a.Platform
	}
	return name
}

// slug names a page or badge file: a few safe characters of the text it
// stands for and a hash of its key, so that no name a report carries
// reaches a path, and two keys never share a file.
func slug(text, key string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	sum := sha256.Sum256([]byte(key))
	if b.Len() == 0 {
		return hex.EncodeToString(sum[:6])
	}
	return b.String() + "-" + hex.EncodeToString(sum[:4])
}

// corpora are the corpus versions the reports were measured on, the most
// recently measured first; each lists the series whose latest report is
// on it.
func corpora(all []*series) []*corpus {
	by := map[string]*corpus{}
	sources := map[string]map[string]bool{}
	for _, se := range all {
		for _, e := range se.entries {
			c := by[e.corpus]
			if c == nil {
				c = &corpus{digest: e.corpus, first: e.started, latest: e.started, root: e.corpusRoot}
				by[e.corpus], sources[e.corpus] = c, map[string]bool{}
			}
			if !sources[e.corpus][e.source] {
				// A report of several implementations is one report.
				sources[e.corpus][e.source] = true
				c.reports++
			}
			if e.started.Before(c.first) {
				c.first = e.started
			}
			if e.started.After(c.latest) || e.started.Equal(c.latest) && c.root == "" {
				c.latest, c.root = e.started, e.corpusRoot
			}
			c.fixtures = max(c.fixtures, len(e.marks))
			for _, v := range e.im.DRP2Versions {
				if !contains(c.drp2, v) {
					c.drp2 = append(c.drp2, v)
				}
			}
		}
		c := by[se.latest().corpus]
		c.series = append(c.series, se)
	}
	out := make([]*corpus, 0, len(by))
	for _, c := range by {
		sort.Strings(c.drp2)
		sort.SliceStable(c.series, func(a, b int) bool { return rankBefore(c.series[a], c.series[b]) })
		out = append(out, c)
	}
	sort.Slice(out, func(a, b int) bool {
		if !out[a].latest.Equal(out[b].latest) {
			return out[a].latest.After(out[b].latest)
		}
		return out[a].digest < out[b].digest
	})
	return out
}

// ranked are the series in the index's order (rankBefore).
func ranked(all []*series) []*series {
	out := append([]*series(nil), all...)
	sort.SliceStable(out, func(a, b int) bool { return rankBefore(out[a], out[b]) })
	return out
}

// corpusChanges are the indexes of a series' entries measured on another
// corpus than the entry before.
func corpusChanges(se *series) []int {
	var out []int
	for i := 1; i < len(se.entries); i++ {
		if se.entries[i].corpus != se.entries[i-1].corpus {
			out = append(out, i)
		}
	}
	return out
}

// rankBefore orders the rows of a corpus: most fixtures passed, then by
// name and key.
func rankBefore(x, y *series) bool {
	lx, ly := x.latest().level, y.latest().level
	if lx.L1Passed != ly.L1Passed {
		return lx.L1Passed > ly.L1Passed
	}
	if x.name != y.name {
		return x.name < y.name
	}
	return x.key < y.key
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
