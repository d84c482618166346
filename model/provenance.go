package model

import "strings"

// The shapes a run's provenance (Run.Commit, Run.Repository, Run.RunURL) may have, as
// a front end is told it: a value of another shape is a mistake on the
// command line and left out of the report by the action. A baseline's
// commit, which git names, is IsCommitHash's.

// IsCommit reports whether s can be a commit's name as Git prints it:
// 4 to 64 lower- or upper-case hexadecimal digits (SHA-1 or SHA-256).
func IsCommit(s string) bool {
	return len(s) >= 4 && len(s) <= 64 && only(s, func(c rune) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' })
}

// IsRepository reports whether s reads as "owner/name" in the characters
// GitHub allows in both (GITHUB_REPOSITORY's form).
func IsRepository(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	return ok && repoPart(owner) && repoPart(name)
}

func repoPart(s string) bool {
	return s != "" && len(s) <= 100 && only(s, func(c rune) bool { return alnum(c) || c == '-' || c == '_' || c == '.' })
}

// IsRunURL reports whether s links a workflow run of repository as
// GitHub prints it: https://HOST/OWNER/NAME/actions/runs/ID, with
// /attempts/N after a re-run, the digits alone. A collector links
// nothing else, since anyone can publish a report.
func IsRunURL(s, repository string) bool {
	return repository != "" && RunURLRepository(s) == repository
}

// RunURLRepository is the OWNER/NAME of the workflow run s links, or ""
// when s is not of IsRunURL's shape.
func RunURLRepository(s string) string {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		return ""
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 6 && len(parts) != 8 || !isHost(parts[0]) || parts[3] != "actions" || parts[4] != "runs" || !isDigits(parts[5]) {
		return ""
	}
	if len(parts) == 8 && (parts[6] != "attempts" || !isDigits(parts[7])) {
		return ""
	}
	if repository := parts[1] + "/" + parts[2]; IsRepository(repository) {
		return repository
	}
	return ""
}

// WorkflowRunURL forms the address of a workflow run (and its attempt,
// after a re-run) as GitHub Actions names it in GITHUB_SERVER_URL,
// GITHUB_REPOSITORY, GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT; empty without
// a repository or a run id. It checks no shape: IsRunURL does.
func WorkflowRunURL(serverURL, repository, runID, attempt string) string {
	if repository == "" || runID == "" {
		return ""
	}
	u := strings.TrimSuffix(serverURL, "/") + "/" + repository + "/actions/runs/" + runID
	if attempt != "" && attempt != "1" {
		u += "/attempts/" + attempt
	}
	return u
}

// isHost reports whether s is a host name (with a port, perhaps) in the
// characters DNS allows: no user, no path, nothing to escape.
func isHost(s string) bool {
	return s != "" && len(s) <= 253 && only(s, func(c rune) bool { return alnum(c) || c == '-' || c == '.' || c == ':' })
}

func isDigits(s string) bool {
	return s != "" && len(s) <= 20 && only(s, func(c rune) bool { return '0' <= c && c <= '9' })
}

// only reports whether every character of s is one ok allows.
func only(s string, ok func(c rune) bool) bool {
	for _, c := range s {
		if !ok(c) {
			return false
		}
	}
	return true
}

func alnum(c rune) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// ShortSum is the first 12 digits of a hex digest (a file's, a corpus's,
// a schema's): enough to tell two apart where a report names one in
// passing.
func ShortSum(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}
