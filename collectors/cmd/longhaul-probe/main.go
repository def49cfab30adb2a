// Command longhaul-probe is the Longhaul agent of a sender host: it runs iperf3, traceroute
// and ping probes against a mesh of targets on a schedule and publishes their samples to
// Kafka through an on-disk spool, so no sample is lost while Kafka is away.
//
//	longhaul-probe run --config FILE     run the agent
//	longhaul-probe check --config FILE   validate a config and exit
//	longhaul-probe parse ...             parse a tool's saved output into samples
//	longhaul-probe version
//
// main only wires: the logic lives in config/, schedule/, publish/, agent/ and probes/.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	_ "longhaul/collectors/probes/all" // registers every probe kind
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: longhaul-probe <command> [flags]

commands:
  run --config FILE     run the agent (probes → spool → Kafka, health on 127.0.0.1:9273)
  check --config FILE   validate a config (fields, targets, probe params) and exit
  parse ...             parse a tool's saved output into samples (parse --help)
  version               print the version

Run "longhaul-probe <command> --help" for a command's flags.
`

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "check":
		return checkCmd(args[1:], stdout, stderr)
	case "parse":
		return parseCmd(args[1:], stdin, stdout, stderr)
	case "version":
		return versionCmd(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "longhaul-probe: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "", stderr)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fmt.Fprintf(stdout, "longhaul-probe %s\n", version)
	return 0
}

// newFlagSet makes a subcommand's flag set whose --help prints to stderr and exits 0.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: longhaul-probe %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; done is true when the command must exit with code (help or error).
func parseFlags(fs *flag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, true
		}
		return 2, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "longhaul-probe %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, true
	}
	return 0, false
}
