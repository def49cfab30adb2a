package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"longhaul/collectors/agent"
	"longhaul/collectors/config"
	"longhaul/collectors/schedule"
	"longhaul/internal/cli"
	"longhaul/internal/kafkaconn"
)

const checkDoc = `Checks a config as run would load it (--kafka, then $LONGHAUL_KAFKA, then the file; the
LONGHAUL_KAFKA_SECURITY, _CA, _CERT, _USER, _PASSWORD_FILE variables over the file's kafka.*
keys), reads the files the Kafka connection needs (password file, CA, client certificate),
builds every probe from its params and looks up on PATH every tool the probes run (iperf3,
traceroute, ping, ip), as the agent will run them. With a psconfig.url it reads the pSConfig
template once and says how many pairs this host schedules, runs and cannot run (longhaul-probe
plan lists them). Runs nothing, connects to nothing else; prints no secret.

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
	if err := cfg.CheckKafkaFiles(); err != nil {
		problems = append(problems, err.Error())
	}
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
	var planLine string
	if cfg.PSConfig.Enabled() { // the template as the agent would read it now, and this host's plan
		ctx, cancel := context.WithTimeout(context.Background(), cfg.PSConfig.Timeout.D()+time.Second)
		entries, err := agent.CheckPlan(ctx, cfg, agent.SystemExec)
		cancel()
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: psconfig.url: %v", cfg.File(), err))
		} else {
			unsupported := 0
			for _, e := range entries {
				if e.Unsupported != "" {
					unsupported++
				}
			}
			planLine = fmt.Sprintf("%s: ok: psconfig %s: %d pairs scheduled by this host, %d run, %d unsupported (longhaul-probe plan lists them)",
				cfg.File(), cfg.PSConfig.URL, len(entries), len(entries)-unsupported, unsupported)
		}
	}
	if len(problems) > 0 {
		fmt.Fprintln(env.Stderr, strings.Join(problems, "\n"))
		return cli.ExitFailure
	}
	file := cfg.File()
	fmt.Fprintf(env.Stdout, "%s: ok: src %s, kafka %s (from %s), %d targets, %d probes, %d (probe, target) runs per interval\n",
		file, cfg.Src, strings.Join(cfg.Kafka.Bootstrap, ","), cfg.KafkaFrom(), len(cfg.Targets), len(insts), len(schedule.TasksFrom(insts)))
	fmt.Fprintf(env.Stdout, "%s: ok: %s\n", file, describeSecurity(cfg))
	if planLine != "" {
		fmt.Fprintln(env.Stdout, planLine)
	}
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

// describeSecurity says how the agent will authenticate and where each setting came from:
// paths and the user, never the password.
func describeSecurity(cfg *config.Config) string {
	k := cfg.Kafka
	from := func(key, v string) string {
		if v == "" {
			return "none"
		}
		return fmt.Sprintf("%s (from %s)", v, cfg.SecurityFrom(key))
	}
	s := fmt.Sprintf("kafka security %s (from %s)", k.Security, cfg.SecurityFrom(config.SecurityKey))
	if k.Security == kafkaconn.Plaintext {
		return s + ": no TLS, no authentication"
	}
	ca := from(config.CAKey, k.TLS.CAFile)
	if k.TLS.CAFile == "" {
		ca = "the system's roots"
	}
	s += ", CA " + ca
	if k.TLS.CertFile != "" {
		s += ", client certificate " + from(config.CertKey, k.TLS.CertFile)
	}
	if k.Security == kafkaconn.SASLSSL {
		s += ", user " + from(config.UserKey, k.SASL.User)
		if k.SASL.PasswordFile != "" {
			s += ", password in " + from(config.PasswordFileKey, k.SASL.PasswordFile)
		} else {
			s += ", password from " + config.PasswordEnv
		}
	}
	return s
}
