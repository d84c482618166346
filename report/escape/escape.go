// Package escape makes untrusted text (fixture names, messages, reasons,
// paths) fit each sink the reporters write to: inert in Markdown, raw HTML
// inside Markdown, XML and GitHub workflow commands, and within the sizes
// each accepts (limit.go).
//
// Every function first repairs invalid UTF-8 and neutralises control
// characters, because a terminal, a browser and an XML parser each treat
// them differently and none of them should be trusted to be lenient.
package escape

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// zeroWidthSpace breaks "@name" and "#123" so that GitHub neither mentions a
// user nor cross-references an issue. GitHub matches mentions on the
// rendered text, so an HTML entity would not help: the character must be
// there.
const zeroWidthSpace = "\u200b"

// replacement stands in for characters that must not reach a sink.
const replacement = '\uFFFD'

// Markdown escapes s for use as inline text in GitHub Flavored Markdown,
// including table cells. The result is one line. HTML is turned into
// entities; every other ASCII punctuation character is backslash-escaped so
// that no emphasis, link, image, table cell, heading or autolink (URL or
// e-mail) can start; mentions and issue references are broken with a
// zero-width space.
func Markdown(s string) string {
	return markdown([]rune(clean(s, true)), func(runes []rune, i int) bool {
		// CommonMark allows a backslash before any ASCII punctuation;
		// escaping all of it is simpler to get right than choosing.
		return isASCIIPunct(runes[i])
	})
}

// markdown writes runes as inline Markdown text: HTML as entities,
// mentions and issue references broken with a zero-width space, and a
// backslash before the punctuation that escaped says starts a construct.
func markdown(runes []rune, escaped func(runes []rune, i int) bool) string {
	var b strings.Builder
	b.Grow(len(runes) + len(runes)/4)
	for i, r := range runes {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '@':
			b.WriteString("@" + zeroWidthSpace)
		case r == '#':
			b.WriteString(`\#`)
			if i+1 < len(runes) && isDigit(runes[i+1]) {
				b.WriteString(zeroWidthSpace)
			}
		case ghReference(runes, i):
			b.WriteString(`\-` + zeroWidthSpace)
		case escaped(runes, i):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ghReference reports whether runes[i] is the '-' of a "GH-123" issue
// reference, which GitHub links like "#123" (in any letter case).
func ghReference(runes []rune, i int) bool {
	return runes[i] == '-' && i >= 2 && i+1 < len(runes) &&
		(runes[i-2] == 'G' || runes[i-2] == 'g') && (runes[i-1] == 'H' || runes[i-1] == 'h') &&
		runes[i+1] >= '0' && runes[i+1] <= '9'
}

// HTML escapes s for use as text inside a raw HTML block of a Markdown
// document, such as a <summary> element, where Markdown is not parsed and
// backslash escapes would show literally. The result is one line.
func HTML(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	runes := []rune(clean(s, true))
	for i, r := range runes {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		case '@':
			b.WriteString("@" + zeroWidthSpace)
		case '#':
			b.WriteByte('#')
			if i+1 < len(runes) && runes[i+1] >= '0' && runes[i+1] <= '9' {
				b.WriteString(zeroWidthSpace)
			}
		case '-':
			b.WriteByte('-')
			if ghReference(runes, i) {
				b.WriteString(zeroWidthSpace)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MarkdownCode returns s as a complete inline code span, backticks
// included, for use outside tables (in a table cell GFM would still split
// the cell at "|"; use "<code>"+Markdown(s)+"</code>" there). The fence is
// one backtick longer than the longest backtick run in s, so s cannot close
// the span early. The result is one line.
func MarkdownCode(s string) string {
	s = clean(s, true)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	// A space pads the content when it starts or ends with a backtick (or
	// would otherwise lose a leading and trailing space to the renderer).
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") ||
		(strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.Trim(s, " ") != "") {
		pad = " "
	}
	if s == "" {
		s, pad = " ", ""
	}
	return fence + pad + s + pad + fence
}

// MarkdownFence returns s as a complete fenced code block, fences and final
// newline included. The fence is longer than any backtick run in s, so s
// cannot end the block; lines are kept.
func MarkdownFence(s string) string { return MarkdownFenceLang("text", s) }

// MarkdownFenceLang is MarkdownFence with the code block's language (lang
// is the caller's own word, never untrusted text): "diff" colours a diff.
func MarkdownFenceLang(lang, s string) string {
	s = clean(s, false)
	n := longestRun(s, '`') + 1
	if n < 3 {
		n = 3
	}
	fence := strings.Repeat("`", n)
	s = strings.TrimRight(s, "\n")
	return fence + lang + "\n" + s + "\n" + fence + "\n"
}

// XMLText returns s with invalid UTF-8 repaired and every character outside
// the XML 1.0 Char production removed, so that it may go into an XML
// attribute or CDATA section (the encoder escapes markup; it does not drop
// such characters from CDATA).
func XMLText(s string) string {
	s = strings.ToValidUTF8(s, string(replacement))
	return strings.Map(func(r rune) rune {
		if IsXMLChar(r) {
			return r
		}
		return -1
	}, s)
}

// IsXMLChar reports whether r is allowed by the Char production of XML 1.0
// (section 2.2).
func IsXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// WorkflowData escapes s for the message part of a GitHub workflow command
// ("::error ...::DATA"): '%' first, then CR and LF, so the message stays on
// its command's line and cannot start a command of its own. Other control
// characters (terminal escapes among them) are replaced.
func WorkflowData(s string) string {
	return workflow(s, false)
}

// WorkflowProperty escapes s for a property value of a workflow command
// ("file=VALUE,title=VALUE"): as WorkflowData, plus ':' and ',' which would
// end the property list or the value.
func WorkflowProperty(s string) string {
	return workflow(s, true)
}

func workflow(s string, property bool) string {
	// Invisible characters are named before "##[" is broken, with a
	// zero-width space that must stay one.
	s = legacyCommands(Visible(s))
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '%':
			b.WriteString("%25")
		case r == '\r':
			b.WriteString("%0D")
		case r == '\n':
			b.WriteString("%0A")
		case property && r == ':':
			b.WriteString("%3A")
		case property && r == ',':
			b.WriteString("%2C")
		case isControl(r):
			b.WriteRune(replacement)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// LogLine makes untrusted text safe to print as lines of a GitHub Actions
// log (stdout or stderr of any step): invalid UTF-8 is repaired, control
// characters other than LF and tab are replaced (CR ends a line, as a
// terminal would show it), no line can start a workflow command ("::",
// after any indentation) and no "##[" can start a legacy one, which the
// runner executes wherever it appears in a line. Lines are kept; every
// line the CLI prints goes through it or through a renderer that uses it.
func LogLine(s string) string {
	s = legacyCommands(clean(s, false))
	if !strings.Contains(s, "::") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if rest := strings.TrimLeftFunc(l, runnerSpace); strings.HasPrefix(rest, "::") {
			// A zero-width space between the colons: the line reads the
			// same and is no longer a command.
			lines[i] = l[:len(l)-len(rest)] + ":" + zeroWidthSpace + rest[1:]
		}
	}
	return strings.Join(lines, "\n")
}

// runnerSpace reports whether the Actions runner skips r before it looks
// for "::" at the start of a line: it trims with .NET's TrimStart, which
// drops every Unicode white space (U+00A0, U+2003 and U+3000 as well as
// the ASCII ones), the set unicode.IsSpace has. The byte-order mark, which
// some trims also drop, is taken as one too.
func runnerSpace(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' }

// legacyCommands breaks every "##[" so that the runner does not execute
// it as a legacy workflow command ("##[set-output name=x;]y"). The
// replacement cannot form a new "##[".
func legacyCommands(s string) string {
	return strings.ReplaceAll(s, "##[", "##"+zeroWidthSpace+"[")
}

// Clip shortens s to at most max runes, ending with "…" when it cut.
// It never splits a rune.
func Clip(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// OneLine joins the lines of s with spaces and trims it: for titles and
// headlines that must stay on one line in any sink.
func OneLine(s string) string {
	return strings.TrimSpace(clean(s, true))
}

// clean repairs invalid UTF-8, replaces control characters and names
// invisible ones, bidirectional controls among them (which can make text
// read differently from what it is). With oneLine, CR, LF and tab become
// spaces; otherwise CRLF and CR become LF and tab is kept.
func clean(s string, oneLine bool) string {
	s = strings.ToValidUTF8(s, string(replacement))
	if !oneLine {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r':
			if oneLine {
				return ' '
			}
			return '\n'
		case r == '\t':
			if oneLine {
				return ' '
			}
			return r
		case isControl(r):
			return replacement
		}
		return r
	}, s)
	return Visible(s)
}

func isControl(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r >= 0x7F && r <= 0x9F
}

func isASCIIPunct(r rune) bool {
	return r >= '!' && r <= '/' || r >= ':' && r <= '@' || r >= '[' && r <= '`' || r >= '{' && r <= '~'
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			if run > longest {
				longest = run
			}
		} else {
			run = 0
		}
	}
	return longest
}

// Visible returns s with invalid UTF-8 repaired and every invisible
// character named by its code point ("[U+2060]"), everything else as it
// is: for text a sink shows as it is, such as a check-run annotation's
// message.
func Visible(s string) string {
	s = strings.ToValidUTF8(s, string(replacement))
	if !strings.ContainsFunc(s, IsInvisible) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		writeVisible(&b, r)
	}
	return b.String()
}

// IsInvisible reports whether r displays as nothing, or changes how the
// text around it displays, without being seen: the format characters
// (zero-width space, joiners, word joiner, BOM, soft hyphen, bidirectional
// controls and marks, invisible operators, tags), every other
// default-ignorable code point of Unicode (Hangul fillers, variation
// selectors, combining grapheme joiner, the unassigned ones), and the
// interlinear annotation marks. A name such as "hand\u2060shake.json"
// would otherwise read as "handshake.json".
func IsInvisible(r rune) bool {
	switch {
	case r < 0xAD:
		return false
	case r >= 0xE0000 && r <= 0xE0FFF, r >= 0xFFF0 && r <= 0xFFFB:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// writeVisible writes r, or its name when it is invisible.
func writeVisible(b *strings.Builder, r rune) {
	if IsInvisible(r) {
		fmt.Fprintf(b, "[U+%04X]", r)
		return
	}
	b.WriteRune(r)
}
