// Command drp2-gen writes large DRP2 corpora and long streams for scale
// tests and benchmarks. Its output is deterministic.
//
//	drp2-gen corpus -out DIR -count N [-seed DIR] [-mismatch-every K] [-broken-every K]
//	drp2-gen stream -out FILE -commands N
//	drp2-gen numbers -out FILE -bytes N
//	drp2-gen reports -out DIR -seed REPORT.json [-count N] [-implementations K] [-every DURATION] [-corpus-every ROUNDS]
//	drp2-gen floor [-workers N] DIR
//	drp2-gen pair [-label L] [-rounds R] [-max X] -- TEST ARGS... -- REFERENCE ARGS...
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/fixtures"
	"github.com/drp2/drp2-fixtures/internal/corpusgen"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "pair" {
		os.Exit(pair(os.Args[2:]))
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "drp2-gen:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: drp2-gen corpus|stream|numbers|reports|floor|pair [flags]")
	}
	fset := flag.NewFlagSet("drp2-gen "+args[0], flag.ContinueOnError)
	out := fset.String("out", "", "output folder (corpus) or file (stream)")
	switch args[0] {
	case "corpus":
		count := fset.Int("count", 1000, "fixtures to write")
		seed := fset.String("seed", "", "seed corpus root (default: the embedded corpus)")
		mismatch := fset.Int("mismatch-every", 0, "make every K-th fixture a mismatch")
		broken := fset.Int("broken-every", 0, "make every K-th fixture malformed JSON")
		if err := fset.Parse(args[1:]); err != nil {
			return err
		}
		if *out == "" {
			return fmt.Errorf("-out is required")
		}
		var src fs.FS = fixtures.FS
		if *seed != "" {
			src = os.DirFS(*seed)
		}
		return corpusgen.Corpus(src, *out, corpusgen.Options{Count: *count, MismatchEvery: *mismatch, BrokenEvery: *broken})
	case "stream":
		n := fset.Int("commands", 1000000, "commands in the stream")
		shape := fset.String("shape", "mixed", "mixed (every kind of command) or cycles (create, write and destroy distinct buffers)")
		if err := fset.Parse(args[1:]); err != nil {
			return err
		}
		switch *shape {
		case "mixed":
			return writeFile(*out, func(w io.Writer, name string) error { return corpusgen.Stream(w, name, *n) })
		case "cycles":
			return writeFile(*out, func(w io.Writer, name string) error { return corpusgen.Cycles(w, name, *n) })
		}
		return fmt.Errorf("unknown -shape %q: want mixed or cycles", *shape)
	case "numbers":
		n := fset.Int("bytes", 1<<20, "approximate size of the fixture")
		if err := fset.Parse(args[1:]); err != nil {
			return err
		}
		return writeFile(*out, func(w io.Writer, name string) error { return corpusgen.Numbers(w, name, *n) })
	case "reports":
		count := fset.Int("count", 1000, "reports to write")
		impls := fset.Int("implementations", 5, "implementations the reports are spread over")
		seed := fset.String("seed", "", "the JSON report of a real run, whose results every report perturbs")
		every := fset.Duration("every", 6*time.Hour, "time between one implementation's reports")
		corpusEvery := fset.Int("corpus-every", 0, "reports of one implementation per corpus version (0: one corpus throughout)")
		if err := fset.Parse(args[1:]); err != nil {
			return err
		}
		if *out == "" || *seed == "" {
			return fmt.Errorf("-out and -seed are required")
		}
		data, err := os.ReadFile(*seed)
		if err != nil {
			return err
		}
		return corpusgen.Reports(data, *out, corpusgen.ReportOptions{Count: *count, Implementations: *impls,
			Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Every: *every, CorpusEvery: *corpusEvery})
	case "floor":
		// The benchmark's yardstick (scripts/bench): read every .json file
		// below DIR once and check its syntax once.
		workers := fset.Int("workers", runtime.GOMAXPROCS(0), "files read at once")
		if err := fset.Parse(args[1:]); err != nil {
			return err
		}
		if fset.NArg() != 1 {
			return fmt.Errorf("floor takes one folder")
		}
		r, err := corpusgen.Floor(fset.Arg(0), *workers)
		if err != nil {
			return err
		}
		fmt.Printf("%d files, %d bytes, %d not valid JSON\n", r.Files, r.Bytes, r.Invalid)
		return nil
	}
	return fmt.Errorf("unknown command %q: want corpus, stream, numbers, reports, floor or pair", args[0])
}

// writeFile creates the file out, with its folders, and fills it with
// write; the fixture is named after the file.
func writeFile(out string, write func(w io.Writer, name string) error) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := write(f, strings.TrimSuffix(filepath.Base(out), ".json")); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
