package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"longhaul/ingest/schema"
	"longhaul/internal/cli"
)

func runValidate(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--schemas DIR] [FILE|-]", "Checks each line against the contract's schemas; prints each invalid line as FILE:LINE: reason.")
	fs.ArgsUsage = "FILE"
	dir := fs.String("schemas", "", "folder of *.schema.json (default: the schemas this binary carries)")
	if code, done := fs.Parse(args); done {
		return code
	}
	if fs.NArg() > 1 {
		return env.UsageError("one FILE at most (got %d)", fs.NArg())
	}
	reg, err := schema.Open(*dir)
	if err != nil {
		return env.Fail("%v", err)
	}
	var in io.Reader = env.Stdin
	name := "-"
	if fs.NArg() == 1 && fs.Args()[0] != "-" {
		f, err := os.Open(fs.Args()[0])
		if err != nil {
			return env.Fail("%v", err)
		}
		defer f.Close()
		in, name = f, fs.Args()[0]
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
			fmt.Fprintf(env.Stdout, "%s:%d: %v\n", name, line, err)
			bad++
			continue
		}
		good++
	}
	if err := sc.Err(); err != nil {
		return env.Fail("%s:%d: %v", name, line+1, err)
	}
	fmt.Fprintf(env.Stderr, "%d valid, %d invalid\n", good, bad)
	if bad > 0 {
		return cli.ExitFailure
	}
	return cli.ExitOK
}
