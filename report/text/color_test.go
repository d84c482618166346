package text

import (
	"testing"
)

func TestUseColor(t *testing.T) {
	for _, c := range []struct {
		env       map[string]string
		byDefault bool
		want      bool
	}{
		{nil, false, false},
		{nil, true, true},
		{map[string]string{"FORCE_COLOR": "1"}, false, true},
		{map[string]string{"FORCE_COLOR": "0"}, true, false},
		{map[string]string{"FORCE_COLOR": "false"}, true, false},
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		// NO_COLOR wins over everything.
		{map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1", "CLICOLOR_FORCE": "1"}, true, false},
	} {
		if got := UseColor(func(k string) string { return c.env[k] }, c.byDefault); got != c.want {
			t.Errorf("UseColor(%v, default %v) = %v, want %v", c.env, c.byDefault, got, c.want)
		}
	}
}
