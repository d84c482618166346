package release

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// codeBlocks returns the README's fenced code blocks in order, with the
// text before the first "## Development" heading marked as such.
func codeBlocks(t *testing.T) (blocks []string, beforeDevelopment []bool) {
	t.Helper()
	src, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	inDev := false
	var cur []string
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		if line == "## Development" {
			inDev = true
		} else if strings.HasPrefix(line, "## ") && line != "## Development" {
			inDev = false
		}
		if strings.HasPrefix(line, "```") {
			if in {
				blocks = append(blocks, strings.Join(cur, "\n"))
				beforeDevelopment = append(beforeDevelopment, !inDev)
				cur, in = nil, false
			} else {
				in = true
			}
			continue
		}
		if in {
			cur = append(cur, line)
		}
	}
	return blocks, beforeDevelopment
}

func commands(block string) []string {
	var cmds []string
	for _, l := range strings.Split(block, "\n") {
		cmd, _, _ := strings.Cut(l, "#")
		if cmd = strings.TrimSpace(cmd); cmd != "" {
			cmds = append(cmds, cmd)
		}
	}
	return cmds
}

// The README starts with the contributors' two commands, has them again at
// the top of its Development section, gives adopters the uses: step for
// datoviz's layout and an install line with the module's real path, and
// shows no path that exists only beside this checkout outside Development.
func TestREADMEFirstScreen(t *testing.T) {
	blocks, outside := codeBlocks(t)
	want := "go run ./cmd/drp2-fixtures run|go test ./..."
	if len(blocks) < 3 || strings.Join(commands(blocks[0]), "|") != want {
		t.Fatalf("the README does not open with the two commands: %q", blocks[0])
	}
	if !strings.Contains(blocks[1], "uses: drp2/drp2-fixtures@v1") || !regexp.MustCompile(`(?m)^          corpus: spec/drp2/fixtures$`).MatchString(blocks[1]) {
		t.Errorf("the first block after the commands is not the uses: step for datoviz's layout:\n%s", blocks[1])
	}
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(gomod)[1]
	install := "go install " + string(module) + "/cmd/drp2-fixtures@latest"
	if !strings.Contains(blocks[2], install) {
		t.Errorf("the block after the uses: step is not the install line %q:\n%s", install, blocks[2])
	}
	dev := -1
	for i, b := range blocks {
		if !outside[i] && dev < 0 {
			dev = i
			if strings.Join(commands(b), "|") != want {
				t.Errorf("the Development section does not start with the two commands: %q", b)
			}
		}
		if outside[i] && strings.Contains(b, "../shared") {
			t.Errorf("a README example uses a path beside this checkout:\n%s", b)
		}
	}
	if dev < 0 {
		t.Error("no Development section")
	}
}
