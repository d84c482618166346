package github

import (
	"unicode/utf8"
)

const truncatedNote = "\n\n… (truncated to fit GitHub's limit)"

// truncateBytes cuts s to at most n bytes at a rune boundary, ending with a
// note that says it was cut.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len(truncatedNote)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + truncatedNote
}

// truncateCharsNote cuts s to at most n characters, ending with the note.
func truncateCharsNote(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	note := []rune(truncatedNote)
	r := []rune(s)
	return string(r[:n-len(note)]) + truncatedNote
}
