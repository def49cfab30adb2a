package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// FlagSet is a command's flags under the package's rule: --help prints the usage to stdout
// (exit 0); an unknown flag, a bad value or an unexpected argument is one line of error and
// one of hint on stderr (exit 2). Flags may come after positional arguments (parse FILE
// --ts N); "--" ends the flags.
type FlagSet struct {
	*flag.FlagSet
	env *Env
	// Synopsis follows the command's name on the usage line: "--config FILE [--kafka HOST:PORT]".
	Synopsis string
	// Doc is printed under the usage line.
	Doc string
	// ArgsUsage names the positional arguments ("FILE|-"); when empty, none are accepted.
	ArgsUsage string

	deprecated map[string]string // old flag name → the new one
	positional []string
}

// FlagSet makes the flag set of the command env runs.
func (e *Env) FlagSet(synopsis, doc string) *FlagSet {
	fs := flag.NewFlagSet(e.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed by Parse, under the rule
	return &FlagSet{FlagSet: fs, env: e, Synopsis: synopsis, Doc: doc, deprecated: map[string]string{}}
}

// Deprecated makes old another name of the flag now, for the release that still accepts it:
// using it sets now's value and prints a one-line warning naming now. The usage lists it
// apart. now must be defined first.
func (f *FlagSet) Deprecated(old, now string) {
	target := f.Lookup(now)
	if target == nil {
		panic(fmt.Sprintf("cli: Deprecated(%q, %q): no flag %q", old, now, now))
	}
	f.deprecated[old] = now
	f.Var(&aliasValue{Value: target.Value, warn: func() {
		f.env.Warn("--%s is deprecated, use --%s (--%s goes in the next release)", old, now, old)
	}}, old, "deprecated: use --"+now)
}

// aliasValue is a deprecated flag: it warns, then sets the flag it stands for.
type aliasValue struct {
	flag.Value
	warn func()
}

func (a *aliasValue) Set(s string) error {
	a.warn()
	return a.Value.Set(s)
}

func (a *aliasValue) IsBoolFlag() bool {
	b, ok := a.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Parse parses args. When done is true the command must return code: 0 after --help, 2 after
// a usage error (already printed).
func (f *FlagSet) Parse(args []string) (code int, done bool) {
	var positional []string
	for {
		err := f.FlagSet.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			f.Usage(f.env.Stdout)
			return ExitOK, true
		}
		if err != nil {
			return f.env.UsageError("%s", flagError(err)), true
		}
		rest := f.FlagSet.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional, args = append(positional, rest[0]), rest[1:]
	}
	if len(positional) > 0 && f.ArgsUsage == "" {
		return f.env.UsageError("unexpected argument %q", positional[0]), true
	}
	for old, now := range f.deprecated {
		if f.isSet(old) && f.isSet(now) {
			return f.env.UsageError("--%s and --%s are the same setting: give --%s only", old, now, now), true
		}
	}
	f.positional = positional
	return ExitOK, false
}

// flagError words the flag package's errors the way the App words its own, with the flag as
// users write it: "unknown flag --verbose", not "flag provided but not defined: -verbose".
func flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimPrefix(name, "-")
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "flag --" + strings.TrimPrefix(name, "-") + " needs a value"
	}
	return msg
}

// Args returns the positional arguments, in order, wherever they stood among the flags.
func (f *FlagSet) Args() []string { return f.positional }

// NArg is len(Args()).
func (f *FlagSet) NArg() int { return len(f.positional) }

func (f *FlagSet) isSet(name string) bool {
	set := false
	f.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

// SetAs tells how the flag name was given on the command line: "--name", "--old" for its
// deprecated name, or "" when it was not given. Messages about its value use it.
func (f *FlagSet) SetAs(name string) string {
	if f.isSet(name) {
		return "--" + name
	}
	for old, now := range f.deprecated {
		if now == name && f.isSet(old) {
			return "--" + old
		}
	}
	return ""
}

// Usage writes the command's usage: synopsis, doc, flags with their defaults, deprecated names.
func (f *FlagSet) Usage(w io.Writer) {
	syn := strings.TrimSpace(f.Synopsis)
	if syn == "" {
		syn = "[flags]"
	}
	fmt.Fprintf(w, "usage: %s %s\n", f.env.Name, syn)
	if f.Doc != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(f.Doc, "\n"))
	}
	var flags []*flag.Flag
	f.VisitAll(func(fl *flag.Flag) {
		if _, old := f.deprecated[fl.Name]; !old {
			flags = append(flags, fl)
		}
	})
	if len(flags) > 0 {
		fmt.Fprint(w, "\nflags:\n")
	}
	for _, fl := range flags {
		arg, usage := flag.UnquoteUsage(fl)
		head := "  --" + fl.Name
		if arg != "" {
			head += " " + arg
		}
		if fl.DefValue != "" && fl.DefValue != "false" && fl.DefValue != "0" {
			usage += fmt.Sprintf(" (default %s)", fl.DefValue)
		}
		fmt.Fprintf(w, "%s\n        %s\n", head, usage)
	}
	if len(f.deprecated) > 0 {
		olds := make([]string, 0, len(f.deprecated))
		for old, now := range f.deprecated {
			olds = append(olds, fmt.Sprintf("--%s (use --%s)", old, now))
		}
		sort.Strings(olds)
		fmt.Fprintf(w, "\ndeprecated, accepted until the next release: %s\n", strings.Join(olds, ", "))
	}
}
