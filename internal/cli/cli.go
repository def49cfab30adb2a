// Package cli is the one help and exit-code rule of Longhaul's commands (longhaul-probe now,
// the operator CLI longhaul next), written once so that every command and subcommand keeps it:
//
//   - PROG --help, PROG help [CMD] and PROG CMD --help print usage to stdout and exit 0.
//   - PROG with no arguments prints usage to stderr and exits 2.
//   - An unknown command or flag (or a bad argument) prints one line saying what is wrong and
//     one line of hint (run 'PROG --help' for usage, run 'PROG CMD --help' for usage) to
//     stderr and exits 2.
//   - A runtime failure exits 1; the command says why on stderr.
//   - Success exits 0.
//
// An App is a dispatch table of Commands; a Command whose Run dispatches to another App has
// subcommands (longhaul-probe config sample). Commands parse their flags with a FlagSet, which
// applies the same rule to --help and flag errors.
package cli

import (
	"fmt"
	"io"
	"strings"
)

// Exit codes.
const (
	ExitOK      = 0 // done
	ExitFailure = 1 // a runtime failure: the command printed why
	ExitUsage   = 2 // the command line is wrong: nothing was done
)

// Command is one subcommand of an App.
type Command struct {
	Name    string
	Summary string // one line, shown in the App's usage
	// Run runs the command with the arguments after its name and returns the exit code.
	Run func(env *Env, args []string) int
}

// App is a program (or a command with subcommands) and its dispatch table.
type App struct {
	Name     string // "longhaul-probe"; "longhaul-probe config" for a command's subcommands
	Doc      string // what it does, printed under the usage line
	Commands []Command
}

// Env is what a command runs with: its full name for messages and its streams.
type Env struct {
	Name   string // "longhaul-probe run"
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Command runs the app as a command of another ("longhaul job …"): the rest of the line, in the
// parent's streams. An App of subcommands is a Command's Run as a.Command.
func (a *App) Command(env *Env, args []string) int {
	return a.Run(args, env.Stdin, env.Stdout, env.Stderr)
}

// Run dispatches args (without the program name) and returns the exit code.
func (a *App) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		a.Usage(stderr)
		return ExitUsage
	}
	first := args[0]
	if first == "help" && len(args) > 1 { // help CMD is CMD --help
		first, args = args[1], []string{args[1], "--help"}
	}
	switch first {
	case "help", "-h", "-help", "--help":
		a.Usage(stdout)
		return ExitOK
	}
	if first == "--version" || first == "-version" { // the version command, when there is one
		first, args = "version", []string{"version"}
	}
	if strings.HasPrefix(first, "-") {
		return a.usageError(stderr, "unknown flag %s", first)
	}
	for _, c := range a.Commands {
		if c.Name == first {
			return c.Run(&Env{Name: a.Name + " " + c.Name, Stdin: stdin, Stdout: stdout, Stderr: stderr}, args[1:])
		}
	}
	return a.usageError(stderr, "unknown command %q", first)
}

func (a *App) usageError(w io.Writer, format string, args ...any) int {
	fmt.Fprintf(w, "%s: %s\n", a.Name, fmt.Sprintf(format, args...))
	fmt.Fprintf(w, "run '%s --help' for usage\n", a.Name)
	return ExitUsage
}

// Usage writes the App's usage: the synopsis, its Doc and the commands with their summaries.
func (a *App) Usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s <command> [flags]\n", a.Name)
	if a.Doc != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(a.Doc, "\n"))
	}
	width := 0
	for _, c := range a.Commands {
		width = max(width, len(c.Name))
	}
	fmt.Fprint(w, "\ncommands:\n")
	for _, c := range a.Commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.Name, c.Summary)
	}
	fmt.Fprintf(w, "\nRun '%s <command> --help' for a command's flags.\n", a.Name)
}

// UsageError reports a wrong command line: one line saying what is wrong, one line of hint,
// on stderr. It returns ExitUsage.
func (e *Env) UsageError(format string, args ...any) int {
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.Name, fmt.Sprintf(format, args...))
	fmt.Fprintf(e.Stderr, "run '%s --help' for usage\n", e.Name)
	return ExitUsage
}

// Fail reports a runtime failure on stderr and returns ExitFailure.
func (e *Env) Fail(format string, args ...any) int {
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.Name, fmt.Sprintf(format, args...))
	return ExitFailure
}

// Warn writes a one-line warning on stderr; the command goes on.
func (e *Env) Warn(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "%s: warning: %s\n", e.Name, fmt.Sprintf(format, args...))
}
