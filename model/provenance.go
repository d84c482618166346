package model

import "strings"

// The shapes a run's provenance (Run.Commit, Run.Repository) may have, as
// a front end is told it: a value of another shape is a mistake on the
// command line and left out of the report by the action. A baseline's
// commit, which git names, is IsCommitHash's.

// IsCommit reports whether s can be a commit's name as Git prints it:
// 4 to 64 lower- or upper-case hexadecimal digits (SHA-1 or SHA-256).
func IsCommit(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// IsRepository reports whether s reads as "owner/name" in the characters
// GitHub allows in both (GITHUB_REPOSITORY's form).
func IsRepository(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	return ok && repoPart(owner) && repoPart(name)
}

func repoPart(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// ShortSum is the first 12 digits of a hex digest (a file's, a corpus's,
// a schema's): enough to tell two apart where a report names one in
// passing.
func ShortSum(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}
