package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"longhaul/collectors/schema"
)

func init() {
	register("validate", "check JSON Lines messages against ingest/schemas; prints each invalid line with the reason", runValidate)
}

func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("schemas", schema.DefaultDir(), "folder of *.schema.json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: longhaul validate [--schemas DIR] [FILE|-]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	reg, err := schema.Load(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "longhaul validate:", err)
		return 2
	}
	in, name := stdin, "-"
	if fs.NArg() > 0 && fs.Arg(0) != "-" {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintln(stderr, "longhaul validate:", err)
			return 2
		}
		defer f.Close()
		in, name = f, fs.Arg(0)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	good, bad, line := 0, 0, 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		if err := reg.Validate(sc.Bytes()); err != nil {
			fmt.Fprintf(stdout, "%s:%d: %v\n", name, line, err)
			bad++
			continue
		}
		good++
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "longhaul validate: %s:%d: %v\n", name, line+1, err)
		return 2
	}
	fmt.Fprintf(stderr, "%d valid, %d invalid\n", good, bad)
	if bad > 0 {
		return 1
	}
	return 0
}
