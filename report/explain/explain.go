// Package explain turns a fixture result into the words every reporter
// uses: a one-line headline ("expected semantic_validation DRP2_ERR_USAGE at
// command 9, got success"), the field-by-field comparison, and a plain-text
// detail block. It returns plain text; each sink escapes it for itself.
package explain

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/drp2/drp2-fixtures/model"
)

// Absent is shown for a field that has no value.
const Absent = "—"

// CorpusError is what every report calls a fixture file that could not be
// used at all (unreadable, not JSON, an invalid envelope): it is a fault of
// the corpus, never a DRP2 result (RUNNER.md, Required Execution Pipeline).
const CorpusError = "corpus error"

// Arrow joins an old value to a new one: a change over time (base to
// head, manifest to corpus), never a mismatch, which reads "expected X,
// got Y".
const Arrow = " → "

// Headline says in one line what went wrong with a failing result, or
// "passed" for a passing one.
func Headline(r *model.Result) string {
	if r.IsCorpusError() {
		return CorpusError + ": " + oneLine(r.Actual.Message)
	}
	if r.Passed {
		return "passed"
	}
	if r.Actual.Outcome == model.Success && r.Expected.Outcome == string(model.Success) && r.Actual.Message != "" {
		// The verdict matched but something after it did not, such as
		// the readback replies of the runtime harness's Level 2.
		return "success, but " + oneLine(r.Actual.Message)
	}
	return "expected " + expected(r.Expected) + ", got " + actual(r.Actual)
}

// ExpectedText is the expected block in one line, as the headline words it
// ("semantic_validation DRP2_ERR_USAGE at command 9", "success").
func ExpectedText(r *model.Result) string { return expected(r.Expected) }

// ActualText is the actual result in one line, as the headline words it.
func ActualText(r *model.Result) string { return actual(r.Actual) }

func expected(e model.Expected) string {
	if e.Outcome == string(model.Success) {
		return "success"
	}
	var parts []string
	if e.Outcome != string(model.Error) && e.Outcome != "" {
		parts = append(parts, "outcome "+strconv.Quote(e.Outcome))
	}
	return errorText(appendNonEmpty(parts, e.Phase, e.Code), expectedIndex(e))
}

func actual(a model.Actual) string {
	switch a.Outcome {
	case model.Success:
		return "success"
	case model.CorpusError:
		return "corpus error"
	case model.HarnessError:
		// The runtime harness got no usable answer (crash, timeout,
		// garbage); the message says which.
		return "no verdict from the implementation"
	}
	return errorText(appendNonEmpty(nil, string(a.Phase), a.Code), index(a.CommandIndex))
}

// errorText words an error result in one line: its parts (phase, code,
// ...), "error" when there are none, and the command it names.
func errorText(parts []string, index string) string {
	if len(parts) == 0 {
		parts = append(parts, "error")
	}
	s := strings.Join(parts, " ")
	if index != "" {
		s += " at command " + index
	}
	return oneLine(s)
}

func appendNonEmpty(parts []string, vals ...string) []string {
	for _, v := range vals {
		if v != "" {
			parts = append(parts, v)
		}
	}
	return parts
}

// Field is one compared field of the expected block.
type Field struct {
	Name     string
	Expected string
	Actual   string
	// Compared is false for a field the fixture does not constrain (an
	// omitted command_index), which then cannot differ.
	Compared bool
	Differs  bool
}

// Fields compares the expected block with the actual result field by
// field, in the order of RUNNER.md's Result Matching. Absent values read
// Absent.
func Fields(r *model.Result) []Field {
	e, a := r.Expected, r.Actual
	fields := []Field{
		field("outcome", e.Outcome, string(a.Outcome), true),
		field("phase", e.Phase, string(a.Phase), true),
		field("code", e.Code, a.Code, true),
		field("command_index", expectedIndex(e), index(a.CommandIndex), e.CommandIndex != nil),
	}
	return fields
}

func field(name, exp, act string, compared bool) Field {
	f := Field{Name: name, Expected: orAbsent(exp), Actual: orAbsent(act), Compared: compared}
	f.Differs = compared && exp != act
	return f
}

// expectedIndex is the expected command index in decimal as the fixture
// gives it, even past an int; "" when the fixture names none.
func expectedIndex(e model.Expected) string {
	if e.CommandIndex != nil && e.BigCommandIndex != "" {
		return e.BigCommandIndex
	}
	return index(e.CommandIndex)
}

func index(i *int) string {
	if i == nil {
		return ""
	}
	return strconv.Itoa(*i)
}

func orAbsent(s string) string {
	if s == "" {
		return Absent
	}
	return s
}

// Location is "path:line" (or "path:line:column") for a result, or just
// the path when the span is unknown.
func Location(r *model.Result) string {
	p := DisplayPath(r)
	if r.Span == nil || r.Span.Line <= 0 {
		return p
	}
	if r.Span.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", p, r.Span.Line, r.Span.Column)
	}
	return fmt.Sprintf("%s:%d", p, r.Span.Line)
}

// DisplayPath is the result's path with forward slashes, falling back to
// its corpus-relative path.
func DisplayPath(r *model.Result) string {
	p := r.Path
	if p == "" {
		p = r.RelPath
	}
	return strings.ReplaceAll(p, `\`, "/")
}

// FilePath is a path as a file annotation or a JUnit testcase's file
// attribute names it: slash separated, without a leading "./".
func FilePath(p string) string {
	return strings.TrimPrefix(strings.ReplaceAll(p, `\`, "/"), "./")
}

// StartLine is the line a result is placed at in its file: the first line
// of its span, where the failing member starts, or 1 when the span is
// unknown, since GitHub places a file annotation on a line. Annotations
// and JUnit's line attribute both place results here.
func StartLine(s *model.Span) int {
	if s == nil || s.Line < 1 {
		return 1
	}
	return s.Line
}

// Name is the fixture's name, or its file name when it has none (an
// unreadable fixture).
func Name(r *model.Result) string {
	if r.Name != "" {
		return r.Name
	}
	if r.RelPath != "" {
		return path.Base(r.RelPath)
	}
	return path.Base(DisplayPath(r))
}

// Detail is the full plain-text explanation of a failing result: headline,
// location, the field comparison, the runner's message, reason and fix,
// and diagnostics. Lines are separated by "\n"; untrusted values keep their
// own line breaks, indented, so they cannot pass for a field of their own.
func Detail(r *model.Result) string {
	return Headline(r) + "\n\n" + Body(r)
}

// Body is Detail without the headline, for a sink that shows the headline
// already (a JUnit failure's message, an annotation's message). A corpus
// error's message is its headline, so the body does not repeat it.
func Body(r *model.Result) string {
	var b strings.Builder
	line(&b, "fixture", Name(r))
	line(&b, "path", Location(r))
	if !r.IsCorpusError() {
		line(&b, "class", r.Class.String())
		b.WriteString("\n")
		fmt.Fprintf(&b, "%-15s %-24s %s\n", "field", "expected", "got")
		for _, f := range Fields(r) {
			mark := ""
			switch {
			case f.Differs:
				mark = "  <- differs"
			case !f.Compared:
				mark = "  (not required)"
			}
			fmt.Fprintf(&b, "%-15s %-24s %s%s\n", f.Name, oneLine(f.Expected), oneLine(f.Actual), mark)
		}
		b.WriteString("\n")
	}
	if m := Message(r); m != "" && !r.IsCorpusError() {
		line(&b, "message", m)
	}
	if r.Actual.Rule != "" {
		line(&b, "rule", r.Actual.Rule)
	}
	if r.Reason != "" {
		line(&b, FixtureReason, r.Reason)
	}
	if r.Fix != "" {
		line(&b, FixtureFix, r.Fix)
	}
	for _, d := range r.Diagnostics {
		line(&b, "diagnostic", d.Source+": "+d.Message)
	}
	return strings.TrimRight(b.String(), "\n")
}

// Message is the tool's message without the rule reference the validator
// ends it with ("... (LIFETIMES.md Destruction rule 2)"): every report
// names the rule on its own, once.
func Message(r *model.Result) string {
	msg, rule := r.Actual.Message, r.Actual.Rule
	if rule != "" {
		msg = strings.TrimSuffix(strings.TrimRight(msg, " "), "("+rule+")")
		msg = strings.TrimRight(msg, " ")
	}
	return msg
}

// FixtureReason and FixtureFix label the fixture's own words, so that
// they are never read as the tool's verdict.
const (
	FixtureReason = "fixture's reason"
	FixtureFix    = "fixture's fix"
)

// Why is the tool's own reason for its verdict, in one line: the message,
// then the prose rule it applies in parentheses ("WriteBuffer: buffer_id
// 1 names no object (COMMANDS.md WriteBuffer rule 2)"). Empty when the
// tool gave neither.
func Why(r *model.Result) string {
	msg, rule := oneLine(Message(r)), oneLine(r.Actual.Rule)
	switch {
	case rule == "":
		return msg
	case msg == "":
		return rule
	}
	return msg + " (" + rule + ")"
}

// Differences says in as few words as possible how the actual result
// differs from the expected block, one entry per differing field, each
// "expected X, got Y": "expected DRP2_ERR_INVALID_ID, got
// DRP2_ERR_INVALID_STATE", "expected command 4, got command 3". When the
// outcomes differ the other fields have nothing to compare with, so the one
// entry holds both sides whole ("expected success, got schema_validation
// DRP2_ERR_SCHEMA at command 0"). Empty for a passing result; a corpus
// error has the one entry CorpusError.
func Differences(r *model.Result) []string {
	if r.IsCorpusError() {
		return []string{CorpusError}
	}
	if r.Passed {
		return nil
	}
	e, a := r.Expected, r.Actual
	mismatch := func(exp, got string) string { return oneLine("expected " + exp + ", got " + got) }
	if e.Outcome != string(a.Outcome) {
		return []string{mismatch(expected(e), actual(a))}
	}
	var out []string
	if e.Phase != string(a.Phase) {
		out = append(out, mismatch(orAbsent(e.Phase), orAbsent(string(a.Phase))))
	}
	if e.Code != a.Code {
		out = append(out, mismatch(orAbsent(e.Code), orAbsent(a.Code)))
	}
	if e.CommandIndex != nil && (a.CommandIndex == nil || *a.CommandIndex != *e.CommandIndex) {
		got := "no command"
		if a.CommandIndex != nil {
			got = "command " + strconv.Itoa(*a.CommandIndex)
		}
		out = append(out, mismatch("command "+expectedIndex(e), got))
	}
	if len(out) == 0 {
		// Matching found a difference this summary cannot name; say the
		// whole of both sides rather than nothing.
		out = append(out, mismatch(expected(e), actual(a)))
	}
	return out
}

// ShownName is the fixture's name when it says more than its file name
// does, and "" when it is the file name without ".json" (the usual case)
// or absent, so that no report repeats the file name as the name.
func ShownName(r *model.Result) string {
	if r.Name == "" {
		return ""
	}
	base := path.Base(DisplayPath(r))
	if r.Name == strings.TrimSuffix(base, ".json") || r.Name == base {
		return ""
	}
	return r.Name
}

// Verdict is the run's result in a few words, the same in every report:
// "6 of 9 fixtures failed", "all 3 fixtures passed", "no fixtures run".
// Failed counts corpus errors; Breakdown says how many there are.
func Verdict(s *model.Summary) string {
	switch {
	case s.Run == 0:
		return "no fixtures run"
	case s.Failed > 0:
		return fmt.Sprintf("%d of %d %s failed", s.Failed, s.Run, Plural(s.Run, "fixture", "fixtures"))
	case s.Run == 1:
		return "the 1 fixture passed"
	default:
		return fmt.Sprintf("all %d fixtures passed", s.Run)
	}
}

// Breakdown splits the failed count into mismatches and corpus errors, so
// that the parts add up to the count Verdict gives: "5 mismatches, 1
// corpus error". Empty when nothing failed.
func Breakdown(s *model.Summary) string {
	return breakdown(s.Failed, s.CorpusErrors)
}

// breakdown splits failed fixtures into mismatches and corpus errors; ""
// when none failed.
func breakdown(failed, corpusErrors int) string {
	if failed == 0 {
		return ""
	}
	mismatches := failed - corpusErrors
	parts := []string{fmt.Sprintf("%d %s", mismatches, Plural(mismatches, "mismatch", "mismatches"))}
	if corpusErrors > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", corpusErrors, Plural(corpusErrors, CorpusError, CorpusError+"s")))
	}
	return strings.Join(parts, ", ")
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// line writes "key: value", indenting continuation lines of value.
func line(b *strings.Builder, key, value string) {
	value = strings.ReplaceAll(strings.ReplaceAll(value, "\r\n", "\n"), "\r", "\n")
	value = strings.ReplaceAll(value, "\n", "\n    ")
	fmt.Fprintf(b, "%s: %s\n", key, value)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// classTitles are the human names of the known classes.
var classTitles = map[model.Class]string{
	model.ClassPositive:       "Positive",
	model.ClassNegative:       "Semantic negative",
	model.ClassSchemaNegative: "Schema negative",
}

// ClassTitle is the human name of a class, for headings and suite names.
//
// Only a fixture whose expected block cannot be read has no class, and
// such a file is a corpus error: one name for it in every report.
func ClassTitle(c model.Class) string { return title(classTitles, c, "Corpus error") }

// findingTitles are the names of the finding kinds for people.
var findingTitles = map[model.FindingKind]string{
	model.FindingFolderClass:        "folder disagrees with class",
	model.FindingDuplicateName:      "duplicate fixture name",
	model.FindingNameStem:           "name differs from file name",
	model.FindingSkippedFile:        "file skipped",
	model.FindingKnownPassing:       "known failure now passes",
	model.FindingKnownUnused:        "known failure names no fixture",
	model.FindingKnownNotOnBase:     "known failure not on the base",
	model.FindingExcusesCorpusError: "entry cannot excuse a corpus error",
}

// FindingTitle names a finding kind for people; a kind without a name
// is shown as it is spelled.
func FindingTitle(k model.FindingKind) string {
	return title(findingTitles, k, oneLine(string(k)))
}

// title is k's name in names, or otherwise when it has none.
func title[K comparable](names map[K]string, k K, otherwise string) string {
	if t, ok := names[k]; ok {
		return t
	}
	return otherwise
}

// ExploreFailed says that the explore input's exploration did not finish,
// and that this does not change the verdict: an exploration is a lead.
func ExploreFailed(err string) string {
	return "Explore did not finish (the run's verdict above stands): " + err
}
