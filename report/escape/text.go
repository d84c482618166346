package escape

import "strings"

// MarkdownText escapes s like Markdown, but backslash-escapes only the
// punctuation that can start a construct where it stands, so that a
// sentence written in the raw Markdown (a headline, a note) still reads as
// one: "1 of 3 fixtures failed (1 mismatch); the corpus ..." keeps its
// semicolon and parentheses. Escaped everywhere: \ ` * _ [ ] | ~ $ # (code,
// emphasis, links and images, table cells, strikethrough, math, headings
// and their closing sequence); HTML and '@' as Markdown does. Escaped where
// they would start something: a leading '-', '+' or '=' (a list, a
// thematic break, a setext underline), the '.' or ')' of a leading number
// (an ordered list), the ':' of "scheme://" and the '.' of "www." (an
// autolink), the '-' of "GH-123" (an issue reference). The result is one
// line, without spaces at either end.
func MarkdownText(s string) string {
	// Leading spaces would indent a code block, trailing ones break the
	// line.
	return markdown([]rune(strings.Trim(clean(s, true), " ")), startsConstruct)
}

// startsConstruct reports whether the punctuation runes[i] must be escaped
// in MarkdownText.
func startsConstruct(runes []rune, i int) bool {
	r := runes[i]
	switch r {
	case '\\', '`', '*', '_', '[', ']', '|', '~', '$':
		return true
	case '-', '+', '=':
		return leadingSpaces(runes, i)
	case '.', ')':
		return leadingNumber(runes, i) || r == '.' && afterWWW(runes, i)
	case ':':
		return i+1 < len(runes) && runes[i+1] == '/'
	}
	return false
}

// leadingSpaces reports whether only spaces come before runes[i].
func leadingSpaces(runes []rune, i int) bool {
	for _, r := range runes[:i] {
		if r != ' ' {
			return false
		}
	}
	return true
}

// leadingNumber reports whether runes[:i] is a number, spaces before it:
// "12." and "12)" open an ordered list.
func leadingNumber(runes []rune, i int) bool {
	j := i
	for j > 0 && isDigit(runes[j-1]) {
		j--
	}
	return j < i && leadingSpaces(runes, j)
}

// afterWWW reports whether runes[i] follows "www" in any letter case.
func afterWWW(runes []rune, i int) bool {
	if i < 3 {
		return false
	}
	for _, r := range runes[i-3 : i] {
		if r != 'w' && r != 'W' {
			return false
		}
	}
	return true
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }
