package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"longhaul/collectors/agent"
	"longhaul/collectors/config"
	"longhaul/collectors/schedule"
)

const defaultConfig = "/etc/longhaul/longhaul-probe.yaml"

func runCmd(args []string, _, stderr io.Writer) int {
	fs := newFlagSet("run", "--config FILE [--brokers HOST:PORT,...] [--log-level info] [--log-format text]", stderr)
	path := fs.String("config", defaultConfig, "the agent's YAML config (see longhaul-probe.example.yaml)")
	brokers := fs.String("brokers", "", "replace the config's kafka.brokers (comma-separated host:port)")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	format := fs.String("log-format", "text", "text or json (one object per line)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	log, err := newLogger(stderr, *level, *format)
	if err != nil {
		fmt.Fprintf(stderr, "longhaul-probe run: %v\n", err)
		return 2
	}
	cfg, err := loadConfig(*path, *brokers)
	if err != nil {
		fmt.Fprintf(stderr, "longhaul-probe run: invalid config:\n%v\n", err)
		return 1
	}
	a, err := agent.New(cfg, agent.Options{Version: version, Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "longhaul-probe run: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("longhaul-probe starting", "version", version, "pid", os.Getpid())
	if err := a.Run(ctx); err != nil {
		log.Error("longhaul-probe stopped with an error", "err", err)
		return 1
	}
	log.Info("longhaul-probe stopped")
	return 0
}

func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", "--config FILE [--brokers HOST:PORT,...]", stderr)
	path := fs.String("config", defaultConfig, "the agent's YAML config to validate")
	brokers := fs.String("brokers", "", "replace the config's kafka.brokers (comma-separated host:port)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	cfg, err := loadConfig(*path, *brokers)
	if err == nil {
		var insts []config.Instance
		if insts, err = cfg.Build(agent.SystemExec); err == nil {
			tasks := schedule.TasksFrom(insts)
			fmt.Fprintf(stdout, "%s: ok: src %s, %d targets, %d probes, %d (probe, target) runs per interval\n",
				*path, cfg.Src, len(cfg.Targets), len(insts), len(tasks))
			return 0
		}
	}
	fmt.Fprintf(stderr, "%v\n", err)
	return 1
}

// loadConfig loads path and applies --brokers if given.
func loadConfig(path, brokers string) (*config.Config, error) {
	var opt config.Options
	if brokers != "" {
		opt.Kafka = config.Override{From: "--brokers", Value: brokers}
	}
	return config.LoadWith(path, opt)
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: %q is not debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format: %q is not text or json", format)
}
