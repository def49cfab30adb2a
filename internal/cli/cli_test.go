package cli

import (
	"bytes"
	"strings"
	"testing"
)

// demo is a program with the shapes the rule must cover: a command with flags and a
// positional argument, one that fails at run time, and one with subcommands.
func demo() *App {
	sub := &App{Name: "demo config", Commands: []Command{{Name: "sample", Summary: "print the sample", Run: func(env *Env, args []string) int {
		fs := env.FlagSet("", "")
		if code, done := fs.Parse(args); done {
			return code
		}
		env.Stdout.Write([]byte("sample\n"))
		return ExitOK
	}}}}
	return &App{Name: "demo", Doc: "Demo does things.", Commands: []Command{
		{Name: "get", Summary: "get a thing", Run: func(env *Env, args []string) int {
			fs := env.FlagSet("[--kafka HOST:PORT] FILE", "Gets FILE.")
			fs.ArgsUsage = "FILE"
			kafka := fs.String("kafka", "127.0.0.1:9092", "the bootstrap `HOST:PORT`")
			fs.Deprecated("brokers", "kafka")
			if code, done := fs.Parse(args); done {
				return code
			}
			if fs.NArg() != 1 {
				return env.UsageError("give one FILE (got %d)", fs.NArg())
			}
			env.Stdout.Write([]byte(*kafka + " " + fs.SetAs("kafka") + " " + fs.Args()[0] + "\n"))
			return ExitOK
		}},
		{Name: "fail", Summary: "always fails", Run: func(env *Env, args []string) int {
			if code, done := env.FlagSet("", "").Parse(args); done {
				return code
			}
			return env.Fail("it broke")
		}},
		{Name: "config", Summary: "config subcommands", Run: sub.Command},
	}}
}

func call(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = demo().Run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func TestHelpGoesToStdoutAndExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, out, errs := call(args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: demo <command> [flags]\n") ||
			!strings.Contains(out, "Demo does things.") || !strings.Contains(out, "  get     get a thing\n") ||
			!strings.Contains(out, "  config  config subcommands\n") {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"get", "--help"}, {"get", "-h"}, {"help", "get"}} {
		code, out, errs := call(args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: demo get [--kafka HOST:PORT] FILE\n\nGets FILE.\n") ||
			!strings.Contains(out, "  --kafka HOST:PORT\n        the bootstrap HOST:PORT (default 127.0.0.1:9092)\n") {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errs)
		}
		if strings.Contains(out, "--brokers HOST") || !strings.Contains(out, "deprecated, accepted until the next release: --brokers (use --kafka)") {
			t.Errorf("%v: a deprecated flag is listed apart:\n%s", args, out)
		}
	}
	if code, out, errs := call("config", "sample", "--help"); code != 0 || errs != "" || out != "usage: demo config sample [flags]\n" {
		t.Errorf("nested --help: exit %d %q %q", code, out, errs)
	}
}

func TestNoArgumentsPrintsUsageToStderrAndExitsTwo(t *testing.T) {
	if code, out, errs := call(); code != 2 || out != "" || !strings.HasPrefix(errs, "usage: demo <command> [flags]\n") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	if code, _, errs := call("config"); code != 2 || !strings.HasPrefix(errs, "usage: demo config <command> [flags]\n") {
		t.Errorf("nested: exit %d %s", code, errs)
	}
}

// Every usage error is exactly two lines on stderr: what is wrong, and where help is.
func TestUsageErrorsAreOneLinePlusAHintAndExitTwo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"frobnicate"}, []string{`demo: unknown command "frobnicate"`, "run 'demo --help' for usage"}},
		{[]string{"--verbose"}, []string{"demo: unknown flag --verbose", "run 'demo --help' for usage"}},
		{[]string{"get", "--verbose", "f"}, []string{"demo get: unknown flag --verbose", "run 'demo get --help' for usage"}},
		{[]string{"get", "-v", "f"}, []string{"demo get: unknown flag --v", "run 'demo get --help' for usage"}},
		{[]string{"get", "f", "--kafka"}, []string{"demo get: flag --kafka needs a value", "run 'demo get --help' for usage"}},
		{[]string{"get", "--kafka=", "f", "g"}, []string{"demo get: give one FILE (got 2)", "run 'demo get --help' for usage"}},
		{[]string{"get"}, []string{"demo get: give one FILE (got 0)", "run 'demo get --help' for usage"}},
		{[]string{"fail", "extra"}, []string{`demo fail: unexpected argument "extra"`, "run 'demo fail --help' for usage"}},
		{[]string{"config", "nope"}, []string{`demo config: unknown command "nope"`, "run 'demo config --help' for usage"}},
		{[]string{"config", "sample", "-x"}, []string{"demo config sample: unknown flag --x", "run 'demo config sample --help' for usage"}},
	} {
		code, out, errs := call(c.args...)
		if code != 2 || out != "" || strings.Join(lines(errs), "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%v: exit %d, stdout %q\nstderr:\n%s\nwant:\n%s", c.args, code, out, errs, strings.Join(c.want, "\n"))
		}
	}
}

func TestRuntimeFailureExitsOne(t *testing.T) {
	if code, out, errs := call("fail"); code != 1 || out != "" || errs != "demo fail: it broke\n" {
		t.Errorf("exit %d %q %q", code, out, errs)
	}
}

func TestFlagsMayFollowPositionalArgumentsAndDoubleDashEndsThem(t *testing.T) {
	if code, out, errs := call("get", "f.yaml", "--kafka", "k:1"); code != 0 || out != "k:1 --kafka f.yaml\n" || errs != "" {
		t.Errorf("exit %d %q %q", code, out, errs)
	}
	if code, out, _ := call("get", "--", "--kafka"); code != 0 || out != "127.0.0.1:9092  --kafka\n" {
		t.Errorf("after --: exit %d %q", code, out)
	}
}

func TestADeprecatedFlagStillWorksWithAOneLineWarningNamingTheNewOne(t *testing.T) {
	code, out, errs := call("get", "--brokers", "old:9092", "f")
	if code != 0 || out != "old:9092 --brokers f\n" {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	if errs != "demo get: warning: --brokers is deprecated, use --kafka (--brokers goes in the next release)\n" {
		t.Errorf("warning %q", errs)
	}
	if code, _, errs := call("get", "--brokers", "a:1", "--kafka", "b:1", "f"); code != 2 ||
		!strings.Contains(errs, "demo get: --brokers and --kafka are the same setting: give --kafka only\n") {
		t.Errorf("both names: exit %d %q", code, errs)
	}
}
