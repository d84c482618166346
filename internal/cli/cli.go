// Package cli is the one front end of drp2-fixtures: the table of
// subcommands (run, action, manifest, coverage, merge, expectations,
// adapter, explore, diff, site, version) and their flags. run's flags and the action's INPUT_*
// variables (internal/cli/action) both become a gate.RunRequest for the
// gate (internal/gate), the one door: every subcommand builds the request
// of one of its use cases and renders the outcome with the table of
// formats (report), so the front ends differ only in where the request
// comes from and where the results go. A subcommand returns the error
// that stopped it; Main alone prints it and maps it to the exit code. It
// runs in-process in tests; only cmd/ touches os.Args and os.Exit.
package cli

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/drp2/drp2-fixtures/internal/version"
)

// command is one subcommand: its synopsis and what it does, for the
// help's two aligned columns, and what runs it with the arguments after
// its name.
type command struct {
	synopsis, help string
	run            func(ctx context.Context, args []string, env Env) error
}

// commands are the subcommands, in the order the help lists them; the
// first word of a synopsis is the subcommand's name.
var commands = []command{
	{"run [flags] [PATH...]", "run the corpus found here, else the embedded one", runCommand},
	{"action", "run as the GitHub Action (reads INPUT_* variables)", actionMain},
	{"manifest write|check", "record the corpus in a manifest, or compare", manifestCommand},
	{"coverage [flags]", "which validator rules the corpus exercises", coverageCommand},
	{"merge REPORT.json...", "merge the JSON reports of several jobs or shards", mergeCommand},
	{"expectations update|check", "roll an expectations list from reports, or lint one", expectationsCommand},
	{"adapter [flags]", "serve the harness protocol with this validator", adapterCommand},
	{"explore [flags]", "find generated streams implementations disagree on", exploreCommand},
	{"diff BASE.json HEAD.json", "compare two JSON reports fixture by fixture",
		func(_ context.Context, args []string, env Env) error { return diffCommand(args, env) }},
	{"site --out DIR REPORT...", "build the conformance site from JSON reports",
		func(_ context.Context, args []string, env Env) error { return siteCommand(args, env) }},
	{"version", "print the version and commit", versionMain},
	{"help", "show this help", func(context.Context, []string, Env) error { return nil }},
}

// aliases are other spellings of a subcommand.
var aliases = map[string]string{"--version": "version", "-h": "help", "-help": "help", "--help": "help"}

// usageWidth is the width the help fits in: a terminal's 80 columns.
const usageWidth = 80

var usage = func() string {
	width := 0
	for _, c := range commands {
		width = max(width, len(c.synopsis))
	}
	var b strings.Builder
	b.WriteString("drp2-fixtures runs a DRP2 fixture corpus and reports the result.\n\n")
	b.WriteString("Usage: drp2-fixtures COMMAND [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.synopsis, c.help)
	}
	b.WriteString("\nRun \"drp2-fixtures COMMAND -h\" for the flags of a command.\n")
	return b.String()
}()

const actionUsage = `Usage: drp2-fixtures action

Runs as the GitHub Action of action.yml: reads its inputs from the INPUT_*
variables the Actions runner sets (INPUT_CORPUS, INPUT_FAIL-ON, ...), the
event payload and GITHUB_* variables, runs the corpus, writes the reports,
the job summary and the step outputs, then publishes the check run and the
pull request comment. It takes no arguments; outside the action, use
"drp2-fixtures run".
`

const versionUsage = `Usage: drp2-fixtures version

Prints the version: the release and the commit it was built from.
`

// helpAsked says whether args ask for help.
func helpAsked(args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// actionMain is the action subcommand: it takes no arguments. The action
// prints its own errors, as workflow commands.
func actionMain(ctx context.Context, args []string, env Env) error {
	const name = "drp2-fixtures action"
	if helpAsked(args) {
		fmt.Fprint(env.Stdout, actionUsage)
		return nil
	}
	if len(args) > 0 {
		return usagef(name, "unexpected argument %q: the action reads its inputs from INPUT_* variables (drp2-fixtures action -h)", args[0])
	}
	run := env.Action
	if run == nil {
		run = defaultAction
	}
	if run == nil {
		return fail(name, errors.New("this build has no action front end"))
	}
	if err := run(ctx, env); err != nil {
		return printed{err}
	}
	return nil
}

// defaultAction runs the action when Env.Action is nil: none in the
// binary, whose main gives Env.Action; the tests set it.
var defaultAction func(context.Context, Env) error

// versionMain prints the version.
func versionMain(_ context.Context, args []string, env Env) error {
	if helpAsked(args) {
		fmt.Fprint(env.Stdout, versionUsage)
		return nil
	}
	fmt.Fprintln(env.Stdout, "drp2-fixtures", version.String())
	return nil
}

// Main runs the command line and returns the exit code: a subcommand
// returns the error that stopped it, and Main alone prints it and maps it
// to the exit code (end). A panic anywhere below is the tool's own
// failure (exit 3), never unusable input (exit 2).
func Main(ctx context.Context, args []string, env Env) (code int) {
	defer env.Protect()()
	stderr := logSafe(env.Stderr)
	env.Stderr = stderr
	defer stderr.Flush()
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(env.Stderr, "drp2-fixtures: internal error: %v\n%s", p, debug.Stack())
			code = ExitInternal
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return ExitUsage
	}
	name := args[0]
	if alias, ok := aliases[name]; ok {
		name = alias
	}
	if name == "help" {
		fmt.Fprint(env.Stdout, usage)
		return ExitOK
	}
	for _, c := range commands {
		if strings.Fields(c.synopsis)[0] == name {
			return end(env, interrupted(ctx, c.run(ctx, args[1:], env)))
		}
	}
	fmt.Fprintf(env.Stderr, "drp2-fixtures: unknown command %q\n\n%s", args[0], usage)
	return ExitUsage
}
