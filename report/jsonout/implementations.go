package jsonout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/internal/jsonpos"
	"github.com/drp2/drp2-fixtures/model"
)

// Implementation is one implementation's record: who it is, its counts,
// and one result per fixture in the shape of the top-level results.
type Implementation struct {
	Command      string   `json:"command"`
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	DRP2Versions []string `json:"drp2_versions"`
	Executes     bool     `json:"executes"`
	// Protocol is the adapter protocol version it spoke; Phases the
	// phases it declared (absent: all three); Adapter the device it ran on.
	Protocol int      `json:"protocol,omitempty"`
	Phases   []string `json:"phases,omitempty"`
	Adapter  *Adapter `json:"adapter,omitempty"`
	// Capabilities is the capabilities object of its hello, as sent.
	Capabilities json.RawMessage       `json:"capabilities,omitempty"`
	Error        *string               `json:"error"`
	Summary      ImplementationSummary `json:"summary"`
	Restarts     int                   `json:"restarts"`
	// DurationMS is how long its run took, in milliseconds (a merge of
	// shards: their sum); 0 under SOURCE_DATE_EPOCH.
	DurationMS json.Number `json:"duration_ms"`
	Stderr     string      `json:"stderr"`
	Results    []Result    `json:"results"`
	// Level2 maps each fixture whose readback replies were checked to
	// whether they mirrored the requests (keys sorted by the encoder).
	Level2 map[string]bool `json:"level2,omitempty"`
	// Readbacks maps each fixture whose replies passed Level 2 to the
	// bytes of its readbacks (base64, in request order), for the Level 3
	// preview.
	Readbacks map[string][][]byte `json:"readbacks,omitempty"`
	// Images are its readbacks the corpus describes as images, compared
	// with their references (Level 3).
	Images []ImageCheck `json:"images,omitempty"`
}

// Adapter is the wire form of model.GPUAdapter: the device an
// implementation ran on, in its own words. It keeps the name of its member,
// which the decoder's errors print, as Verdict does.
type Adapter struct {
	Vendor       string `json:"vendor,omitempty"`
	Architecture string `json:"architecture,omitempty"`
	Device       string `json:"device,omitempty"`
	Driver       string `json:"driver,omitempty"`
	Platform     string `json:"platform,omitempty"`
}

// ImplementationSummary counts one implementation's results.
type ImplementationSummary struct {
	Run           int  `json:"run"`
	Passed        int  `json:"passed"`
	Failed        int  `json:"failed"`
	HarnessErrors int  `json:"harness_errors"`
	NotClaimed    int  `json:"not_claimed"`
	Level1        bool `json:"level1"`
	Level2Checked int  `json:"level2_checked"`
	Level2Passed  int  `json:"level2_passed"`
	// Level3Compared and Level3Agreed count the readbacks compared in the
	// Level 3 preview and those equal to the reference (the fixture's own
	// data, else the best implementation's bytes).
	Level3Compared int      `json:"level3_compared"`
	Level3Agreed   int      `json:"level3_agreed"`
	FailingPaths   []string `json:"failing_paths"`
	// KnownFailures and the rest count what its expectations say;
	// UnexpectedFailures the failures they do not excuse, which fail the
	// run.
	KnownFailures      int `json:"known_failures,omitempty"`
	UnexpectedFailures int `json:"unexpected_failures"`
	ExpectationCounts
}

// implementationRecord is an implementation's record without its
// results; parity is the run's Level 3 preview, which it counts.
func implementationRecord(im *model.Implementation, parity []model.ParityRow) Implementation {
	checked, passed := im.Level2Counts()
	compared, agreed := model.ParityCounts(parity, im.Label())
	rec := Implementation{
		Command: im.Command, Name: im.Name, Version: im.Version,
		DRP2Versions: append([]string{}, im.DRP2Versions...), Executes: im.Executes,
		Error: optional(im.Error), Restarts: im.Restarts, DurationMS: millis(im.Duration), Stderr: im.Stderr,
		Summary: ImplementationSummary{Run: im.Summary.Run, Passed: im.Summary.Passed, Failed: im.Summary.Failed,
			HarnessErrors: im.HarnessErrors(), NotClaimed: im.NotClaimedCount(), Level1: im.Level1(),
			Level2Checked: checked, Level2Passed: passed, Level3Compared: compared, Level3Agreed: agreed,
			FailingPaths:  append([]string{}, im.Summary.FailingPaths...),
			KnownFailures: im.Summary.KnownFailures, UnexpectedFailures: im.Summary.Unexcused(), ExpectationCounts: expectationCounts(&im.Summary)},
		Level2:    im.Level2,
		Readbacks: im.Readbacks,
		Images:    imageChecks(im.Images),
		Protocol:  im.Protocol,
		Phases:    im.Phases,
	}
	if json.Valid(im.Capabilities) {
		rec.Capabilities = im.Capabilities
	}
	if a := im.Adapter; a != nil {
		rec.Adapter = &Adapter{Vendor: a.Vendor, Architecture: a.Architecture, Device: a.Device, Driver: a.Driver, Platform: a.Platform}
	}
	return rec
}

// Read reads a JSON report back into a run, for merging the reports of
// several jobs or shards. What the format does not carry (tags, the
// fixtures' prose) stays empty; the summaries are
// computed again from the results.
func Read(r io.Reader) (*model.Run, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	// A report with a key twice would be read by whichever copy the
	// decoder keeps (the last): refused, as fixtures are.
	if object, key, off, dup := jsonpos.DuplicateKey(data); dup {
		line, col := jsonpos.LineColumn(data, off)
		if object == "" {
			object = "/"
		}
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: line %d, column %d: the key %q appears twice in the object at %s", line, col, key, object)
	}
	return readDocument(data, nil, false)
}

// readDocument is Read of a report known to have no key twice; checked:
// one checkReportSpans vouched for and found decodable, whose results
// arrays decodeChecked reads at spans.
func readDocument(data []byte, spans resultSpanList, checked bool) (*model.Run, error) {
	var doc Document
	if checked && decodeChecked(data, spans, &doc) {
		return readDecoded(&doc)
	}
	doc = Document{}
	if err := json.Unmarshal(data, &doc); err != nil {
		// A report of another major version may not decode as this one:
		// its reader must hear that, not the decoder's complaint.
		var probe struct {
			Version *string `json:"report_version"`
		}
		if json.Unmarshal(data, &probe) == nil {
			if err := checkVersion(probe.Version); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: %v", err)
	}
	return readDecoded(&doc)
}

// readDecoded makes a run of a decoded report.
func readDecoded(doc *Document) (*model.Run, error) {
	if err := checkVersion(doc.versionOrNil()); err != nil {
		return nil, err
	}
	if doc.Results == nil {
		return nil, fmt.Errorf(`not a drp2-fixtures JSON report: no "results" array`)
	}
	run := &model.Run{
		CorpusRoot: doc.Summary.Corpus, ToolVersion: doc.Summary.ToolVersion,
		CommandSchema: fromSchema(doc.Summary.CommandSchema), FixtureSchema: fromSchema(doc.Summary.FixtureSchema),
		Findings: convert(doc.Findings, fromFinding), FixtureReadbacks: doc.FixtureReadbacks,
		Commit: doc.Summary.Commit, Repository: doc.Summary.Repository, RunURL: doc.Summary.RunURL, CorpusDigest: doc.Summary.CorpusSHA256, Shard: fromShard(doc.Summary.Shard),
		Interrupted: (*model.Interruption)(doc.Summary.Interrupted), Rerun: (*model.Rerun)(doc.Summary.Rerun),
	}
	if doc.Summary.Started != "" {
		t, err := time.Parse(time.RFC3339, doc.Summary.Started)
		if err != nil {
			return nil, fmt.Errorf("summary.started %q is not an RFC 3339 time", doc.Summary.Started)
		}
		run.Started = t.UTC()
	}
	var err error
	if run.Duration, err = readMillis(doc.Summary.DurationMS); err != nil {
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: summary: %v", err)
	}
	if d := run.CorpusDigest; d != "" && !isSHA256(d) {
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: summary.corpus_sha256 %.80q is not a SHA-256 in hex", d)
	}
	if sh := run.Shard; sh != nil && (sh.Count < 1 || sh.Index < 1 || sh.Index > sh.Count) {
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: summary.shard is %d of %d, not a shard", sh.Index, sh.Count)
	}
	if sh := run.Shard; sh != nil && sh.Timings != "" && !isSHA256(sh.Timings) {
		return nil, fmt.Errorf("not a drp2-fixtures JSON report: summary.shard.timings %.80q is not a SHA-256 in hex", sh.Timings)
	}
	if len(doc.Results) > 0 {
		run.Results = make([]model.Result, 0, len(doc.Results))
	}
	for i := range doc.Results {
		res, err := readResult(&doc.Results[i])
		if err != nil {
			return nil, fmt.Errorf("result %d: %v", i, err)
		}
		run.Results = append(run.Results, res)
	}
	run.Summary = model.Summarize(doc.Summary.Discovered, run.Results, run.Findings)
	for i := range doc.Implementations {
		im, err := readImplementation(&doc.Implementations[i], doc.Summary.Discovered)
		if err != nil {
			return nil, fmt.Errorf("implementation %d, %v", i, err)
		}
		run.Implementations = append(run.Implementations, im)
	}
	return run, nil
}

// readImplementation reads one implementation's record back.
func readImplementation(rec *Implementation, discovered int) (model.Implementation, error) {
	im := model.Implementation{Command: rec.Command, Name: rec.Name, Version: rec.Version,
		DRP2Versions: rec.DRP2Versions, Executes: rec.Executes, Restarts: rec.Restarts, Stderr: rec.Stderr,
		Level2: rec.Level2, Readbacks: rec.Readbacks, Protocol: rec.Protocol, Phases: rec.Phases,
		Capabilities: rec.Capabilities}
	if a := rec.Adapter; a != nil {
		im.Adapter = &model.GPUAdapter{Vendor: a.Vendor, Architecture: a.Architecture, Device: a.Device, Driver: a.Driver, Platform: a.Platform}
	}
	if rec.Error != nil {
		im.Error = *rec.Error
	}
	var err error
	if im.Duration, err = readMillis(rec.DurationMS); err != nil {
		return im, err
	}
	if im.Images, err = readImageChecks(rec.Images); err != nil {
		return im, err
	}
	if im.Executes && im.Level2 == nil {
		im.Level2 = map[string]bool{}
	}
	if im.Executes && im.Readbacks == nil {
		im.Readbacks = map[string][][]byte{}
	}
	if len(rec.Results) > 0 {
		im.Results = make([]model.Result, 0, len(rec.Results))
	}
	for j := range rec.Results {
		res, err := readResult(&rec.Results[j])
		if err != nil {
			return im, fmt.Errorf("result %d: %v", j, err)
		}
		im.Results = append(im.Results, res)
	}
	im.Summary = model.Summarize(discovered, im.Results, nil)
	return im, nil
}

func readResult(rec *Result) (model.Result, error) {
	if rec.CorpusPath == "" {
		return model.Result{}, fmt.Errorf("%s: no corpus_path", rec.FixturePath)
	}
	expected := model.Expected{Outcome: deref(rec.ExpectedOutcome), Phase: deref(rec.ExpectedPhase), Code: deref(rec.ExpectedCode)}
	if n := rec.ExpectedCommandIndex; n != nil {
		// As the runner reads a fixture's index: one past an int keeps its
		// decimal and matches no command.
		i, err := strconv.Atoi(n.String())
		switch {
		case err == nil && i >= 0:
		case isDigits(n.String()):
			i, expected.BigCommandIndex = int(^uint(0)>>1), n.String()
		default:
			return model.Result{}, fmt.Errorf("%s: expected_command_index %s is not a command index", rec.FixturePath, n)
		}
		expected.CommandIndex = &i
	}
	r := model.Result{
		Path: rec.FixturePath, RelPath: rec.CorpusPath, Name: rec.FixtureName,
		Class:    classOf(rec.Class),
		Expected: expected,
		Actual: model.Actual{Outcome: model.Outcome(rec.ActualOutcome), Phase: model.Phase(deref(rec.ActualPhase)),
			Code: deref(rec.ActualCode), CommandIndex: rec.ActualCommandIndex, Message: deref(rec.Message), Rule: deref(rec.Rule)},
		Reason: deref(rec.Reason), Fix: deref(rec.Fix),
		Passed: rec.Passed, Span: (*model.Span)(rec.Location), Diagnostics: convert(rec.Diagnostics, fromDiagnostic),
		// A known failure stays one when read back: diff, a baseline and a
		// merge judge it as the run that wrote it did.
		KnownFailure:  deref(rec.KnownFailure),
		DetailLeftOut: rec.DetailLeftOut && !rec.Passed,
		Attempts:      readAttempts(rec.Attempts),
		Carried:       rec.Carried,
	}
	var err error
	if r.Duration, err = readMillis(rec.DurationMS); err != nil {
		return model.Result{}, fmt.Errorf("%s: %v", rec.FixturePath, err)
	}
	if r.Listing, err = readListing(rec.Expectation); err != nil {
		return model.Result{}, fmt.Errorf("%s: %v", rec.FixturePath, err)
	}
	r.Folder, _, _ = strings.Cut(path.Clean(r.RelPath), "/")
	if rec.Digest != nil {
		r.Digest = model.Digest(*rec.Digest)
	}
	return r, nil
}

func classOf(s string) model.Class {
	for _, c := range model.Classes {
		if c.String() == s {
			return c
		}
	}
	return model.ClassUnknown
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ParityRow is one readback compared across sources in the Level 3
// preview: the groups of sources with equal bytes, the reference first.
type ParityRow struct {
	CorpusPath string        `json:"corpus_path"`
	Readback   int           `json:"readback"`
	Agree      bool          `json:"agree"`
	Groups     []ParityGroup `json:"groups"`
	// Unusable are the sources whose data could not be compared (not
	// base64, or over 1 MiB).
	Unusable []string `json:"unusable,omitempty"`
}

// ParityGroup is sources that returned the same bytes; FirstDiff is the
// first byte that differs from the reference group's (absent for it).
type ParityGroup struct {
	Sources   []string `json:"sources"`
	Size      int      `json:"size"`
	SHA256    string   `json:"sha256"`
	FirstDiff *int     `json:"first_differing_byte,omitempty"`
}

func parityRows(rows []model.ParityRow) []ParityRow {
	out := make([]ParityRow, 0, len(rows))
	for _, r := range rows {
		rec := ParityRow{CorpusPath: r.Path, Readback: r.Readback, Agree: r.Agree(), Unusable: r.Unusable}
		for _, g := range r.Groups {
			sum := sha256.Sum256(g.Data)
			pg := ParityGroup{Sources: g.Sources, Size: g.Size, SHA256: hex.EncodeToString(sum[:])}
			if g.FirstDiff >= 0 {
				at := g.FirstDiff
				pg.FirstDiff = &at
			}
			rec.Groups = append(rec.Groups, pg)
		}
		out = append(out, rec)
	}
	return out
}

// isDigits reports whether s is a non-empty run of decimal digits.
func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// isSHA256 reports whether s is a SHA-256 as the reports write it: 64
// lower-case hex digits.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
