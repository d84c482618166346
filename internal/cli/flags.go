package cli

import (
	"bytes"
	"flag"
	"fmt"
	"strconv"
	"time"
)

// newFlagSet is a subcommand's flag set. -h and --help print the usage on
// standard output (help that was asked for is not an error); a flag that
// does not parse is returned as an error for the caller to print on one
// line, without the whole usage after it.
func newFlagSet(name, synopsis string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// flag prints a parse error to the output before calling Usage; the
	// error is returned too, so it is caught here and not printed.
	var failed bytes.Buffer
	fs.SetOutput(&failed)
	fs.Usage = func() {
		if failed.Len() > 0 {
			failed.Reset()
			return
		}
		printUsage(fs, synopsis, env)
	}
	return fs
}

func printUsage(fs *flag.FlagSet, synopsis string, env Env) {
	fmt.Fprintf(env.Stdout, "Usage: %s\n", synopsis)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintln(env.Stdout, "\nFlags:")
	out := fs.Output()
	fs.SetOutput(env.Stdout)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// durationValue is a flag of a positive duration whose error says what a
// duration looks like (flag's own says only "parse error").
type durationValue struct{ d *time.Duration }

func (v durationValue) String() string {
	if v.d == nil {
		return ""
	}
	return v.d.String()
}

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration such as 10s, 1m30s or 500ms")
	}
	*v.d = d
	return nil
}

// parsedFlag defines a flag whose text parse reads into *dst (--shard:
// K/N, read by gate.ParseShard).
func parsedFlag[T any](fs *flag.FlagSet, name, usage string, dst *T, parse func(string) (T, error)) {
	fs.Func(name, usage, func(s string) error {
		v, err := parse(s)
		if err != nil {
			return err
		}
		*dst = v
		return nil
	})
}

// workersValue is the --workers flag: at least 1; leaving it out means one
// per core.
type workersValue struct{ n *int }

func (v workersValue) String() string {
	if v.n == nil || *v.n == 0 {
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v workersValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("want a whole number of at least 1 (leave the flag out for one per core)")
	}
	*v.n = n
	return nil
}

func workersFlag(fs *flag.FlagSet, n *int) {
	fs.Var(workersValue{n}, "workers", "fixtures run at once, at least 1 (default: one per core)")
}

// countValue is a flag of a whole number of at least min, whose error says
// what is wanted (flag's own says only "parse error"): want names the unit
// and an example, "a whole number of retries, 0 or more, such as 2".
type countValue[T int | int64] struct {
	n    *T
	min  T
	want string
}

func (v countValue[T]) String() string {
	if v.n == nil || *v.n == 0 {
		return ""
	}
	return strconv.FormatInt(int64(*v.n), 10)
}

func (v countValue[T]) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < int64(v.min) || int64(T(n)) != n {
		return fmt.Errorf("want %s", v.want)
	}
	*v.n = T(n)
	return nil
}

func retriesFlag(fs *flag.FlagSet, n *int) {
	fs.Var(countValue[int]{n, 0, "a whole number of retries, 0 or more, such as 2"}, "retries",
		"send a fixture an implementation fails unexpectedly up to `N` more times, each to a fresh process; one that then passes is flaky")
}

func maxFixtureSizeFlag(fs *flag.FlagSet, n *int64) {
	fs.Var(countValue[int64]{n, 1, "a whole number of bytes, at least 1, such as 1048576"}, "max-fixture-size",
		"largest fixture file read, in `BYTES`")
}
