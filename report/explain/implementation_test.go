package explain

import "testing"

// TestImplementationsVerdict: the verb agrees with the count, and an
// implementation that could not be used is not counted as failing.
func TestImplementationsVerdict(t *testing.T) {
	for _, tt := range []struct {
		n, failing, unusable int
		want                 string
	}{
		{1, 0, 0, "the 1 implementation passes every fixture"},
		{3, 0, 0, "all 3 implementations pass every fixture"},
		{2, 1, 0, "1 of 2 implementations fails fixtures"},
		{3, 2, 0, "2 of 3 implementations fail fixtures"},
		{2, 1, 1, "1 of 2 implementations fails fixtures; 1 could not be used"},
		{1, 0, 1, "1 of 1 implementation could not be used"},
	} {
		if got := ImplementationsVerdict(tt.n, tt.failing, tt.unusable); got != tt.want {
			t.Errorf("ImplementationsVerdict(%d, %d, %d) = %q, want %q", tt.n, tt.failing, tt.unusable, got, tt.want)
		}
	}
}

func TestReproduceImplementation(t *testing.T) {
	got := ReproduceImplementation("v1.2.3", "node host.js --runtime 'a b'.js", []string{"fixtures/negative/x.json"})
	want := `go run ` + Module + `@v1.2.3 run --implementation 'node host.js --runtime '\''a b'\''.js' fixtures/negative/x.json`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestExpectedVerdict: implementations whose only failures are expected
// are not said to pass every fixture.
func TestExpectedVerdict(t *testing.T) {
	for _, tt := range []struct {
		n, failing, unusable int
		excused              bool
		want                 string
	}{
		{1, 0, 0, true, "the 1 implementation fails only as its expectations say"},
		{2, 0, 0, true, "all 2 implementations fail only as their expectations say"},
		{2, 0, 0, false, "all 2 implementations pass every fixture"},
		{2, 1, 0, true, "1 of 2 implementations fails fixtures"},
	} {
		if got := ExpectedVerdict(tt.n, tt.failing, tt.unusable, tt.excused); got != tt.want {
			t.Errorf("ExpectedVerdict(%d, %d, %d, %v) = %q, want %q", tt.n, tt.failing, tt.unusable, tt.excused, got, tt.want)
		}
	}
}

// TestReproduceNamesTheBuild: the command names the build that made the
// report, never @latest: a release, a clone's pseudo-version or a stamped
// commit pins go run; a development build or one with local changes has
// nothing to pin, and the line says to use one built from the same source.
func TestReproduceNamesTheBuild(t *testing.T) {
	const source = "  # made by a development build: use one built from the same source"
	for _, c := range []struct{ version, want string }{
		{"v1.2.3 (commit 0123456789ab)", "go run " + Module + "@v1.2.3 run x.json"},
		{"v1.2.3", "go run " + Module + "@v1.2.3 run x.json"},
		{"v0.0.0-20261130193818-459f3dd871de (commit 459f3dd871de)", "go run " + Module + "@v0.0.0-20261130193818-459f3dd871de run x.json"},
		{"(devel) (commit 459f3dd871de)", "go run " + Module + "@459f3dd871de run x.json"},
		{"(devel)", "drp2-fixtures run x.json" + source},
		{"", "drp2-fixtures run x.json" + source},
		{"(devel) (commit 459f3dd871de, modified)", "drp2-fixtures run x.json" + source},
		{"v0.0.0-20261130193818-459f3dd871de+dirty (commit 459f3dd871de)", "drp2-fixtures run x.json" + source},
	} {
		if got := Reproduce(c.version, []string{"x.json"}); got != c.want {
			t.Errorf("%q:\ngot  %s\nwant %s", c.version, got, c.want)
		}
	}
}
