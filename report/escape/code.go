package escape

// CodeText escapes s for the text of a raw <code> element in GitHub
// Flavored Markdown, in a table cell or anywhere else, so that a command
// reads and copies as it is: HTML as entities and the punctuation that
// could start a construct where it stands backslash-escaped, as
// MarkdownText does, but no zero-width space. GitHub links no mention or
// issue reference inside code, and a command copied from it must be the
// command itself. A '@' is followed by a <wbr> instead, which keeps an
// e-mail address from becoming a link. Unlike a code span, the element may
// hold <wbr> between pieces of its text, so that a long path can wrap:
// each piece is escaped on its own. The result is one line.
func CodeText(s string) string {
	runes := []rune(clean(s, true))
	var out []rune
	for i, r := range runes {
		switch {
		case r == '&':
			out = append(out, []rune("&amp;")...)
		case r == '<':
			out = append(out, []rune("&lt;")...)
		case r == '>':
			out = append(out, []rune("&gt;")...)
		case r == '@':
			// An e-mail autolink forms across backslash escapes; an
			// element between its parts does not.
			out = append(out, []rune("@<wbr>")...)
		case r == '#' && i == 0, startsConstruct(runes, i):
			out = append(out, '\\', r)
		default:
			out = append(out, r)
		}
	}
	return string(out)
}
