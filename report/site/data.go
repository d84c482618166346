package site

import (
	"bytes"
	"encoding/json"
	"time"
)

// The data files hold what the pages show, as JSON for others to build
// on. Texts are as the reports gave them (encoding/json escapes them for
// JSON, and <, > and & too); times are RFC 3339 in UTC.

// dataVersion is the version of the data files' shape, in
// data/index.json: 2 keys a series by implementation and device across
// corpus versions (docs/site.md).
const dataVersion = 2

type dataLevels struct {
	Level1Passed   int  `json:"level1_passed"`
	Level1Run      int  `json:"level1_run"`
	Level1         bool `json:"level1"`
	Level2Passed   int  `json:"level2_passed"`
	Level2Checked  int  `json:"level2_checked"`
	Level3Agreed   int  `json:"level3_agreed"`
	Level3Compared int  `json:"level3_compared"`
}

type dataReport struct {
	Source     string     `json:"source"`
	Started    string     `json:"started"`
	Version    string     `json:"version"`
	Commit     string     `json:"commit,omitempty"`
	Repository string     `json:"repository,omitempty"`
	Tool       string     `json:"tool_version,omitempty"`
	Corpus     string     `json:"corpus_sha256"`
	SameTime   bool       `json:"same_start_as_another,omitempty"`
	Levels     dataLevels `json:"levels"`
}

type dataSeries struct {
	Slug       string     `json:"slug"`
	Name       string     `json:"name"`
	Repository string     `json:"repository,omitempty"`
	Device     string     `json:"device"`
	Corpus     string     `json:"corpus_sha256"`
	Page       string     `json:"page"`
	Data       string     `json:"data"`
	Badges     []string   `json:"badges"`
	Latest     dataReport `json:"latest"`
	Reports    int        `json:"reports"`
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func reportData(e *entry) dataReport {
	l := e.level
	return dataReport{Source: e.source, Started: rfc3339(e.started), Version: e.im.Version, Commit: e.commit, Repository: e.repository, Tool: e.tool,
		Corpus: e.corpus, SameTime: e.sameTime, Levels: dataLevels{l.L1Passed, l.L1Run, l.L1, l.L2Passed, l.L2Checked, l.L3Agreed, l.L3Compared}}
}

func seriesData(se *series) dataSeries {
	d := dataSeries{Slug: se.slug, Name: nameOf(se.latest().im), Repository: se.repository, Device: adapterText(se.latest().im.Adapter), Corpus: se.latest().corpus,
		Page: "impl/" + se.slug + ".html", Data: "data/impl/" + se.slug + ".json", Latest: reportData(se.latest()), Reports: len(se.entries)}
	for _, n := range []string{"1", "2", "3"} {
		d.Badges = append(d.Badges, "badges/"+se.slug+"-level"+n+".json")
	}
	return d
}

func (s *siteData) data() []File {
	type corpusData struct {
		Digest          string   `json:"corpus_sha256"`
		Root            string   `json:"corpus"`
		DRP2            []string `json:"drp2_versions"`
		Fixtures        int      `json:"fixtures"`
		First           string   `json:"first"`
		Latest          string   `json:"latest"`
		Reports         int      `json:"reports"`
		Implementations []string `json:"latest_of"`
	}
	index := struct {
		Version         int          `json:"data_version"`
		Implementations []dataSeries `json:"implementations"`
		Corpora         []corpusData `json:"corpora"`
		Fixtures        []string     `json:"fixtures"`
		Problems        []string     `json:"reports_left_out"`
		Notes           []string     `json:"notes"`
		Pending         []string     `json:"pending,omitempty"`
	}{Version: dataVersion, Implementations: []dataSeries{}, Fixtures: s.fixtures, Problems: orEmpty(s.problems), Notes: orEmpty(s.notes), Pending: s.pending}
	for _, se := range ranked(s.series) {
		index.Implementations = append(index.Implementations, seriesData(se))
	}
	for _, c := range s.corpora {
		cd := corpusData{Digest: c.digest, Root: c.root, DRP2: orEmpty(c.drp2), Fixtures: c.fixtures, First: rfc3339(c.first), Latest: rfc3339(c.latest),
			Reports: c.reports, Implementations: []string{}}
		for _, se := range c.series {
			cd.Implementations = append(cd.Implementations, se.slug)
		}
		index.Corpora = append(index.Corpora, cd)
	}
	files := []File{{"data/index.json", encodeData(index)}}
	for _, se := range s.series {
		files = append(files, File{"data/impl/" + se.slug + ".json", s.implData(se)})
	}
	for _, p := range s.fixtures {
		files = append(files, File{"data/fixture/" + fixtureSlug(p) + ".json", s.fixtureData(p)})
	}
	return files
}

// dataTransition is a change of verdict, by the indexes of the two
// reports in the series' history.
type dataTransition struct {
	Report  int    `json:"report"`
	From    int    `json:"from"`
	Kind    string `json:"kind"`
	Flip    bool   `json:"flip,omitempty"`
	Changed bool   `json:"fixture_changed,omitempty"`
}

// dataFixture is one fixture's history in a series: where its current
// history starts (and where earlier ones did), its first passing report
// and version in it, the entry that covers it, and its transitions.
type dataFixture struct {
	Since        int              `json:"since"`
	Restarts     []int            `json:"restarts,omitempty"`
	FirstPassing *int             `json:"first_passing,omitempty"`
	FirstVersion string           `json:"first_passing_version,omitempty"`
	Flips        int              `json:"flips,omitempty"`
	FlipVersion  string           `json:"flips_at_version,omitempty"`
	Entry        string           `json:"expectation,omitempty"`
	Transitions  []dataTransition `json:"transitions,omitempty"`
}

func fixtureData(se *series, f *fixtureHistory, entry string) dataFixture {
	d := dataFixture{Since: f.since(), Flips: f.flips, FlipVersion: f.flipVersion, Entry: entry}
	if len(f.starts) > 1 {
		d.Restarts = f.starts[1:]
	}
	if f.firstPass >= 0 {
		at := f.firstPass
		d.FirstPassing, d.FirstVersion = &at, se.entries[at].im.Version
	}
	for _, t := range f.transitions {
		d.Transitions = append(d.Transitions, dataTransition{Report: t.at, From: t.from, Kind: t.kind(), Flip: t.flip, Changed: t.changed})
	}
	return d
}

func (s *siteData) implData(se *series) []byte {
	h := s.hist[se]
	d := struct {
		dataSeries
		History  []dataReport           `json:"history"`
		Changes  []int                  `json:"corpus_changes"`
		Flips    map[string]int         `json:"flips"`
		Latest   map[string]string      `json:"latest_verdicts"`
		Fixtures map[string]dataFixture `json:"fixtures"`
	}{dataSeries: seriesData(se), Changes: orNone(corpusChanges(se)), Flips: map[string]int{}, Latest: map[string]string{}, Fixtures: map[string]dataFixture{}}
	for _, e := range se.entries {
		d.History = append(d.History, reportData(e))
	}
	for _, p := range h.paths {
		if h.flips[p] > 0 {
			d.Flips[p] = h.flips[p]
		}
		d.Latest[p] = lastVerdict(h.verdicts[p])
		d.Fixtures[p] = fixtureData(se, h.fixtures[p], latestMark(se, p).reason)
	}
	return encodeData(d)
}

// fixtureData holds, per series that ran the fixture, its verdict in each
// report, in the order of that series' history in its data file ("" for a
// report that did not run it), and where its current history starts.
func (s *siteData) fixtureData(p string) []byte {
	type row struct {
		Slug       string   `json:"implementation"`
		Name       string   `json:"name"`
		Repository string   `json:"repository,omitempty"`
		Device     string   `json:"device"`
		Corpus     string   `json:"corpus_sha256"`
		Verdicts   []string `json:"verdicts"`
		dataFixture
	}
	d := struct {
		Path string `json:"corpus_path"`
		Rows []row  `json:"implementations"`
	}{Path: p, Rows: []row{}}
	for _, se := range s.series {
		if vs, ok := s.hist[se].verdicts[p]; ok {
			d.Rows = append(d.Rows, row{se.slug, se.name, se.repository, se.device, se.latest().corpus, vs,
				fixtureData(se, s.hist[se].fixtures[p], latestMark(se, p).reason)})
		}
	}
	return encodeData(d)
}

func orNone(list []int) []int {
	if list == nil {
		return []int{}
	}
	return list
}

func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// encodeData writes compact JSON, one document a line: the data files of
// a thousand reports stay small.
func encodeData(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if err := enc.Encode(v); err != nil {
		// Only the package's own plain types are encoded.
		return []byte("null\n")
	}
	return b.Bytes()
}
