package golden

import (
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	if d := LineDiff([]byte("a\nb\n"), []byte("a\nc\n")); !strings.HasPrefix(d, "line 2:") {
		t.Errorf("LineDiff = %q", d)
	}
}
