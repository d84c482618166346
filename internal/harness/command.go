package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// SplitCommand splits a command line into words the way a POSIX shell
// splits a simple command: blanks separate words, single quotes keep
// everything literally, double quotes keep blanks, and a backslash outside
// single quotes escapes the next character. There is no expansion of any
// kind: the harness never runs a shell.
func SplitCommand(line string) ([]string, error) {
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		quote   rune // 0, '\'' or '"'
		escaped bool
	)
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	switch {
	case escaped:
		return nil, fmt.Errorf("command %q ends with a lone backslash", line)
	case quote != 0:
		return nil, fmt.Errorf("command %q has an unclosed %c quote", line, quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	return words, nil
}

// ExpandCommands turns --implementation values into command lines: a value
// "@FILE" stands for the commands listed in FILE, read by readFile (the
// workspace's rules: a pull request can replace the list with a link), one
// a line, where blank lines and lines starting with # are skipped. Every
// command is checked with SplitCommand; errors name the file and line.
func ExpandCommands(readFile func(path string) ([]byte, error), values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		file, ok := strings.CutPrefix(v, "@")
		if !ok {
			if _, err := SplitCommand(v); err != nil {
				return nil, fmt.Errorf("--implementation: %v", err)
			}
			out = append(out, v)
			continue
		}
		data, err := readFile(file)
		if err != nil {
			return nil, fmt.Errorf("--implementation list: %v", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if _, err := SplitCommand(line); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			out = append(out, line)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	}
	return out, nil
}
