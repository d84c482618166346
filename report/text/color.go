package text

// UseColor decides whether the text report is coloured. NO_COLOR, set to
// anything, wins (no-color.org); then FORCE_COLOR or CLICOLOR_FORCE, set to
// anything but "0" (or FORCE_COLOR "false"), turns colour on, as for a log
// that is a pipe but rendered with colour (GitHub's step log); otherwise
// the caller's default: a terminal for run, always for the action, whose
// log GitHub renders with ANSI colour.
func UseColor(getenv func(string) string, byDefault bool) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	switch v := getenv("FORCE_COLOR"); v {
	case "":
	case "0", "false":
		return false
	default:
		return true
	}
	if v := getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	return byDefault
}
