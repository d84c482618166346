package cli

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/exit"
	"github.com/drp2/drp2-fixtures/internal/expect"
	"github.com/drp2/drp2-fixtures/internal/gate"
	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
)

const expectationsUsage = `Usage: drp2-fixtures expectations update [flags] REPORT.json|FOLDER|PATTERN...
       drp2-fixtures expectations check [--bug-pattern REGEX] FILE...

update reads the JSON reports of any number of runs (implementations,
devices, shards, retries, days) and proposes the expectations list they
call for: entries narrowed to the devices that failed, flaky only where a
fixture both failed and passed at one fixture body and implementation
version, fail and flaky entries retired after --retire-after passes in a
row on every device they cover, "# KEEP" ... "# KEEP END" blocks kept. It
prints the change as a unified diff; --write writes the list.

check reports the problems of lists: malformed lines, expired entries and,
with --bug-pattern, entries without a bug link. Either exits 1 when a list
has one of those it was asked to require.

Run "drp2-fixtures expectations update -h" for the flags of update.
`

// maxListSize bounds an expectations list read whole.
const maxListSize = 16 << 20

// expectationsCommand is "drp2-fixtures expectations update|check".
func expectationsCommand(_ context.Context, args []string, env Env) error {
	const name = "drp2-fixtures expectations"
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, expectationsUsage)
		return usagef(name, "want update or check")
	}
	if helpAsked(args[:1]) {
		fmt.Fprint(env.Stdout, expectationsUsage)
		return nil
	}
	switch args[0] {
	case "update":
		return expectationsUpdate(args[1:], env)
	case "check":
		return expectationsCheck(args[1:], env)
	}
	return usagef(name, "unknown subcommand %q: want update or check", args[0])
}

// updateFlags are the flags of expectations update.
type updateFlags struct {
	list, write, reason, bugPattern string
	retireAfter, maxReport          int
}

func parseUpdate(name string, args []string, env Env) (*updateFlags, []string, error) {
	f := &updateFlags{}
	fs := newFlagSet(name, "drp2-fixtures expectations update [flags] REPORT.json|FOLDER|PATTERN...", env)
	fs.StringVar(&f.list, "expectations", "", "the expectations `FILE` to start from (default: an empty list)")
	fs.StringVar(&f.write, "write", "", "write the proposed list to `FILE`, replacing it whole (default: only print the diff)")
	fs.IntVar(&f.retireAfter, "retire-after", expect.DefaultRetireAfter, "retire a fail or flaky entry after `N` passes in a row on every device it covers")
	fs.StringVar(&f.reason, "reason", expect.NewReason, "the comment of an entry added, `TEXT` such as a bug link")
	fs.StringVar(&f.bugPattern, "bug-pattern", "", "require every entry's comment to match the Go regular expression `REGEX` (a bug link); exit 1 naming those that do not")
	fs.IntVar(&f.maxReport, "max-report", gate.MaxCollectedReport>>20, "refuse a report file larger than `MiB` (a warning naming it; the rest are still read)")
	reports, err := parseInterspersed(fs, args)
	switch {
	case err != nil:
		return nil, nil, flagError(name, err)
	case len(reports) == 0:
		return nil, nil, usagef(name, "no report given: name JSON reports, folders holding them, or glob patterns")
	case f.retireAfter < 1:
		return nil, nil, usagef(name, "--retire-after %d: want 1 or more passes", f.retireAfter)
	case strings.ContainsAny(f.reason, "\r\n"):
		return nil, nil, usagef(name, "--reason %q: one line, a comment cannot hold a line break", f.reason)
	case f.maxReport < 1 || f.maxReport > 4096:
		return nil, nil, usagef(name, "--max-report %d: want a whole number of MiB from 1 to 4096", f.maxReport)
	}
	return f, reports, nil
}

// expectationsUpdate is "drp2-fixtures expectations update": the reports
// that cannot be read are named on standard error and the rest still
// count; none at all is unusable input.
func expectationsUpdate(args []string, env Env) error {
	const name = "drp2-fixtures expectations update"
	f, reports, err := parseUpdate(name, args, env)
	if f == nil {
		return err
	}
	o := expect.RollOptions{RetireAfter: f.retireAfter, Reason: f.reason}
	if o.BugPattern, err = bugPattern(f.bugPattern); err != nil {
		return usagef(name, "%v", err)
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	o.Now = ge.Now()
	src, err := readList(ge.WorkDir, f.list)
	if err != nil {
		return fail(name, exit.New(exit.Input, err))
	}
	var sources []expect.Source
	problems := gate.Collect(ge, reports, "", int64(f.maxReport)<<20, func(source string, run *model.Run) {
		sources = append(sources, expect.Source{Name: source, Run: run})
	})
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "%s: warning: %v\n", name, p)
	}
	if len(sources) == 0 {
		return fail(name, exit.Errorf(exit.Input, "no usable report among the inputs"))
	}
	rolled, err := expect.Roll(src, listName(f), sources, o)
	if err != nil {
		return fail(name, exit.New(exit.Input, err))
	}
	fmt.Fprint(env.Stdout, rolled.Diff)
	if f.write != "" {
		if err := gate.SaveReport(ge.WorkDir, false)(f.write, env.Redactor().Bytes(rolled.Out), false); err != nil {
			return fail(name, exit.Errorf(exit.Record, "write %s: %w", f.write, err))
		}
	}
	fmt.Fprintf(env.Stderr, "%s: %d reports, %d entries added, %d retired, %d made flaky\n", name, len(sources), rolled.Added, rolled.Retired, rolled.Flaky)
	return listProblems(env, name, rolled.Problems, rolled.Unlinked > 0)
}

// listName is the name the diff gives the list: the file it was read
// from, else the one it is written to.
func listName(f *updateFlags) string {
	if f.list != "" {
		return f.list
	}
	if f.write != "" {
		return f.write
	}
	return "expectations.txt"
}

// expectationsCheck is "drp2-fixtures expectations check".
func expectationsCheck(args []string, env Env) error {
	const name = "drp2-fixtures expectations check"
	fs := newFlagSet(name, "drp2-fixtures expectations check [--bug-pattern REGEX] FILE...", env)
	pattern := fs.String("bug-pattern", "", "require every entry's comment to match the Go regular expression `REGEX` (a bug link)")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(name, err)
	}
	if len(files) == 0 {
		return usagef(name, "no expectations file given")
	}
	o := expect.RollOptions{}
	if o.BugPattern, err = bugPattern(*pattern); err != nil {
		return usagef(name, "%v", err)
	}
	ge, err := env.gateEnv()
	if err != nil {
		return fail(name, err)
	}
	o.Now = ge.Now()
	var problems []string
	for _, file := range files {
		src, err := readList(ge.WorkDir, file)
		if err != nil {
			return fail(name, exit.New(exit.Input, err))
		}
		l, err := expect.Parse(bytes.NewReader(src), file)
		if err != nil {
			return fail(name, exit.New(exit.Input, err))
		}
		found, _ := expect.Lint(l, o)
		problems = append(problems, found...)
	}
	return listProblems(env, name, problems, len(problems) > 0)
}

// listProblems prints a list's problems on standard error, and fails the
// command when failing says so.
func listProblems(env Env, name string, problems []string, failing bool) error {
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, p)
	}
	if failing {
		return errVerdict
	}
	return nil
}

// bugPattern compiles --bug-pattern; nil for none.
func bugPattern(s string) (*regexp.Regexp, error) {
	if s == "" {
		return nil, nil
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("--bug-pattern: %v", err)
	}
	return re, nil
}

// readList reads the expectations list p through the workspace's rules
// (a regular file, no link, bounded), relative to the working directory
// wd; "" is an empty list.
func readList(wd, p string) ([]byte, error) {
	if p == "" {
		return nil, nil
	}
	return workspace.New(wd, false).ReadFile(p, maxListSize)
}
