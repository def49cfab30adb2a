package main

import (
	"fmt"
	"strings"

	"longhaul/collectors/agent"
	"longhaul/collectors/schedule"
	"longhaul/internal/cli"
)

const checkDoc = `Checks a config as run would load it (--kafka, then $LONGHAUL_KAFKA, then the file), builds
every probe from its params and looks up on PATH every tool the probes run (iperf3,
traceroute, ping, ip), as the agent will run them. Runs nothing, connects to nothing.

Every problem is one line on stderr, FILE:LINE: field: what, and the exit code is 1. With no
problem, "ok" lines on stdout (the config, then each probe and where its tools are) and 0.
Deprecated names are warned about on stderr and do not fail the check.`

// checkCmd is `longhaul-probe check`, the admission check: everything that would stop a
// probe from running, said up front.
func checkCmd(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--config FILE] [--kafka HOST:PORT,...]", checkDoc)
	cf := addConfigFlags(fs)
	if code, done := fs.Parse(args); done {
		return code
	}
	cfg, err := cf.load()
	if err != nil {
		fmt.Fprintln(env.Stderr, err)
		return cli.ExitFailure
	}
	for _, w := range cfg.Warnings() {
		env.Warn("%s", w)
	}
	var problems []string
	insts, err := cfg.Build(agent.SystemExec)
	if err != nil {
		problems = append(problems, err.Error())
	}
	tools := cfg.CheckTools(insts, agent.LookPath)
	for _, tc := range tools {
		if tc.Missing != nil {
			problems = append(problems, tc.Missing.Error())
		}
	}
	if len(problems) > 0 {
		fmt.Fprintln(env.Stderr, strings.Join(problems, "\n"))
		return cli.ExitFailure
	}
	file := cfg.File()
	fmt.Fprintf(env.Stdout, "%s: ok: src %s, kafka %s (from %s), %d targets, %d probes, %d (probe, target) runs per interval\n",
		file, cfg.Src, strings.Join(cfg.Kafka.Bootstrap, ","), cfg.KafkaFrom(), len(cfg.Targets), len(insts), len(schedule.TasksFrom(insts)))
	for _, in := range insts {
		var found []string
		for _, tc := range tools {
			if tc.ProbeID == in.Conf.ID {
				found = append(found, tc.Tool+" "+tc.Path)
			}
		}
		line := fmt.Sprintf("%s: ok: probe %s (%s)", file, in.Conf.ID, in.Conf.Kind)
		if len(found) > 0 {
			line += ": " + strings.Join(found, ", ")
		}
		fmt.Fprintln(env.Stdout, line)
	}
	return cli.ExitOK
}
