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
	"longhaul/internal/cli"
	"longhaul/internal/version"
)

const runDoc = `Runs the agent: every probe against its targets on its schedule, every sample through the
on-disk spool to Kafka, health on GET /health and /metrics. The config is loaded as check
loads it; what check reports as a problem is logged as a warning at start. Stops on SIGINT or
SIGTERM: runs in progress are cancelled and spooled, the spool is flushed to Kafka for up to
10 s, and what Kafka has not acknowledged is sent after the next start.`

func runCmd(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--config FILE] [--kafka HOST:PORT,...] [--log-level info] [--log-format text|json]", runDoc)
	cf := addConfigFlags(fs)
	level := fs.String("log-level", "info", "debug, info, warn or error")
	format := fs.String("log-format", "text", "text or json (one object per line)")
	if code, done := fs.Parse(args); done {
		return code
	}
	log, err := newLogger(env.Stderr, *level, *format)
	if err != nil {
		return env.UsageError("%v", err)
	}
	cfg, err := cf.load()
	if err != nil {
		return env.Fail("invalid config:\n%v", err)
	}
	for _, w := range cfg.Warnings() {
		log.Warn("config: " + w) // a deprecated name, or plaintext Kafka
	}
	build := version.Get()
	a, err := agent.New(cfg, agent.Options{Version: build.Version, Logger: log})
	if err != nil {
		return env.Fail("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("longhaul-probe starting", "version", build.Version, "commit", build.Commit, "built", build.Date, "pid", os.Getpid())
	if err := a.Run(ctx); err != nil {
		log.Error("longhaul-probe stopped with an error", "err", err)
		return cli.ExitFailure
	}
	log.Info("longhaul-probe stopped")
	return cli.ExitOK
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
