package action

import (
	"io"
	"time"

	"github.com/drp2/drp2-fixtures/internal/github"
	"github.com/drp2/drp2-fixtures/internal/secret"
)

// Env is the process as the action sees it, given by the command line
// once it has put every text it writes behind the redactor.
type Env struct {
	// Log is standard output, the Actions log, redacted; RawLog is the
	// same stream before the redactor, for the one line that must name the
	// token (::add-mask::).
	Log, RawLog io.Writer
	// Getenv reads an environment variable; nil means none are set.
	Getenv func(string) string
	// Now is the wall clock; nil means time.Now (SOURCE_DATE_EPOCH wins).
	Now func() time.Time
	// WorkDir is the working directory; empty means the process's.
	WorkDir string
	// Pacing overrides the GitHub API retry and pacing settings. Zero
	// fields fall back to the DRP2_FIXTURES_API_* variables, then to the
	// production defaults of internal/github.
	Pacing Pacing
	// Redactor hides the process's secrets, the token once read included,
	// in every text the action writes or posts.
	Redactor *secret.Redactor
	// ToolVersion is recorded in every report.
	ToolVersion string
	// Sized is told the number of fixtures the run is about to run
	// (cli.Env.Sized); nil tells nothing.
	Sized func(fixtures int)
	// Holds is told the number of results the reports it merges hold
	// (cli.Env.Holds); nil tells nothing.
	Holds func(results int)
	// LargestFixture is told each fixture size larger than any before it
	// (cli.Env.LargestFixture); nil tells nothing.
	LargestFixture func(bytes int64)
}

// Pacing is the GitHub API's retry and pacing settings.
type Pacing = github.Pacing
