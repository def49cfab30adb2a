package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"longhaul/internal/cli"
	"longhaul/internal/settings"
	"longhaul/operator/flink"
)

const jobKeepDoc = `Runs until SIGTERM, under a supervisor (supervisord on the native stack, systemd on a real host):
whenever the cluster has a TaskManager but no job of that name is alive (two looks in a row), it
submits the job, restoring the newest savepoint or retained checkpoint under --state-dir. The job's
arguments are read from --args-file at each submission (one or more per line, # comments), the
Kafka connection and identity added as 'job submit' adds them. Logs one line per action.`

func runJobKeep(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--name N] [--args-file F] [--interval 10s]", jobKeepDoc)
	f := addJobFlags(fs.FlagSet)
	jar := settings.FlinkJar.String(fs.FlagSet)
	argsFile := fs.String("args-file", "", "file of job arguments (default: none beyond Kafka's)")
	interval := fs.Duration("interval", 10*time.Second, "how often to look")
	kafka := settings.Kafka.String(fs.FlagSet)
	if code, done := fs.Parse(args); done {
		return code
	}
	if *f.state == "" {
		return env.Fail("no state folder: give --%s or %s (where the job's checkpoints and savepoints live)",
			settings.FlinkState.Flag, settings.FlinkState.Env)
	}
	readArgs := func() ([]string, error) {
		a, err := readArgsFile(*argsFile)
		if err != nil {
			return nil, err
		}
		return withKafka(a, *kafka, *f.name)
	}
	if _, err := readArgs(); err != nil { // a bad file or identity is reported now, not at the first crash
		return env.Fail("%v", err)
	}
	c, err := f.client()
	if err != nil {
		return env.UsageError("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	fmt.Fprintf(env.Stderr, "keeping job %s running on %s (state in %s, every %s)\n", *f.name, *f.url, *f.state, *interval)
	k := &flink.Keeper{Client: c, Name: *f.name, Jar: *jar, Args: readArgs, StateDir: *f.state,
		Wait: *f.wait, Log: env.Stderr}
	k.Run(ctx, *interval)
	return cli.ExitOK
}

// readArgsFile reads job arguments: whitespace-separated words, '#' to the end of a line a
// comment (the format of tests/testbed/job-profile.args). No file, no arguments.
func readArgsFile(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("job arguments: %w", err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		out = append(out, strings.Fields(line)...)
	}
	return out, nil
}
