package escape

// CodeText escapes s for the text of a raw <code> element in GitHub
// Flavored Markdown, in a table cell or anywhere else: HTML as entities
// and every ASCII punctuation character backslash-escaped, as Markdown
// does, but no zero-width space. GitHub links no mention or issue
// reference inside code, and a command copied from it must be the command
// itself. Unlike a code span, the element may hold <wbr> between pieces
// of its text, so that a long path can wrap: each piece is escaped on its
// own. A '@' is followed by a <wbr>, which keeps an e-mail address from
// becoming a link. The result is one line.
func CodeText(s string) string {
	var out []rune
	for _, r := range clean(s, true) {
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
			out = append(out, []rune(`\@<wbr>`)...)
		case isASCIIPunct(r):
			out = append(out, '\\', r)
		default:
			out = append(out, r)
		}
	}
	return string(out)
}
