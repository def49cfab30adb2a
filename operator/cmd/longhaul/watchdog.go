package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"longhaul/internal/kafkaadmin"

	"longhaul/internal/cli"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
	"longhaul/operator/flink"
	"longhaul/operator/influx"
	"longhaul/operator/watchdog"
)

const watchdogDoc = `Watches the pipeline from outside it and raises pipeline_degraded / pipeline_recovered on the
events topic (evidence.component names what failed): the Flink job --job not RUNNING with every
task running, restarting in a loop, or failing its checkpoints; the lag of the job's consumer
group or of Telegraf's growing; InfluxDB not answering or lacking the statistics Telegraf was
given; an agent silent past its schedule; an agent's clock skewed beyond the contract's
tolerance. A component must stay bad for --grace before it is raised. Writes the status file
every cycle; 'longhaul watchdog status' prints it.

Its Kafka identity: LONGHAUL_KAFKA_USER and LONGHAUL_KAFKA_PASSWORD_FILE; when the user is not
set and the native stack's secrets hold kafka-watchdog.password, the watchdog user. InfluxDB: the
reader (LONGHAUL_INFLUX_USER, LONGHAUL_INFLUX_PASSWORD_FILE). On start it reads back its own
events (--restore-since) so that a restart neither raises an open alert again nor misses its
recovery, and the raw topics' last --lookback to know the agents at once.`

func runWatchdog(env *cli.Env, args []string) int {
	if len(args) > 0 && args[0] == "status" {
		return runWatchdogStatus(env, args[1:])
	}
	fs := env.FlagSet("[--job NAME] [--interval 15s] [--grace 1m] [--status-file FILE] [thresholds] | status", watchdogDoc)
	kafka := settings.Kafka.String(fs.FlagSet)
	flinkURL := settings.Flink.String(fs.FlagSet)
	flinkCert := settings.FlinkCert.String(fs.FlagSet)
	influxURL := settings.Influx.String(fs.FlagSet)
	influxDB := settings.InfluxDB.String(fs.FlagSet)
	influxUser := settings.InfluxUser.String(fs.FlagSet)
	influxPasswordFile := settings.InfluxPasswordFile.String(fs.FlagSet)
	influxCA := settings.InfluxCA.String(fs.FlagSet)
	statusFile := settings.WatchdogStatus.String(fs.FlagSet)
	telegrafConf := settings.TelegrafConf.String(fs.FlagSet)
	job := fs.String("job", flink.DefaultName, "the Flink job to watch (its consumer group is its name)")
	groups := fs.String("groups", "", "consumer groups to watch, comma-separated (default: the job's and those of --telegraf-conf)")
	interval := fs.Duration("interval", 15*time.Second, "how often to look")
	grace := fs.Duration("grace", time.Minute, "how long a component must stay bad before it is raised")
	lookback := fs.Duration("lookback", 5*time.Minute, "on start, read the raw and stats topics from this long ago")
	restoreSince := fs.Duration("restore-since", 30*24*time.Hour, "on start, read back the watchdog's events from this long ago")
	maxHosts := fs.Int("max-hosts", 10000, "agent hosts kept of those first named on shared topics, and as many of those heard from their own identity (records of further hosts are counted, not kept)")
	timeout := fs.Duration("timeout", 10*time.Second, "per request to Flink, Kafka or InfluxDB")
	th := watchdog.DefaultThresholds()
	fs.Int64Var(&th.RestartLimit, "restart-limit", th.RestartLimit, "restarts within --restart-window that make a loop")
	fs.DurationVar(&th.RestartWindow, "restart-window", th.RestartWindow, "window of --restart-limit")
	fs.Float64Var(&th.CheckpointIntervals, "checkpoint-intervals", th.CheckpointIntervals, "checkpoint intervals without a completed checkpoint that are too many")
	fs.DurationVar(&th.LateWindow, "late-window", th.LateWindow, "how long a record dropped as late (behind the watermark) keeps the warning")
	fs.Int64Var(&th.LagMin, "lag-min", th.LagMin, "a group's lag (records) is judged only above this")
	fs.IntVar(&th.LagCycles, "lag-cycles", th.LagCycles, "looks over which a lag above --lag-min must not shrink to be growing")
	fs.DurationVar(&th.InfluxDelay, "influx-delay", th.InfluxDelay, "how long a statistic may take from the stats topic into InfluxDB")
	fs.Int64Var(&th.SeriesBudget, "series-budget", th.SeriesBudget, "InfluxDB series the deployment was sized for: a warning past it")
	fs.Float64Var(&th.SilenceFactor, "silence-factor", th.SilenceFactor, "an agent is silent after this many of its usual gaps")
	fs.DurationVar(&th.SilenceFloor, "silence-floor", th.SilenceFloor, "and never sooner than this")
	fs.DurationVar(&th.SilencePatience, "silence-patience", th.SilencePatience, "silence allowed to an agent whose schedule is not known yet (fewer than 3 gaps)")
	fs.DurationVar(&th.SkewTolerance, "skew-tolerance", th.SkewTolerance, "clock skew allowed (default: the contract's clock_skew_tolerance_s)")
	if code, done := fs.Parse(args); done {
		return code
	}
	if *interval <= 0 || *grace < 0 || *timeout <= 0 || *maxHosts <= 0 || th.LagCycles <= 0 {
		return env.UsageError("--interval, --timeout, --max-hosts and --lag-cycles must be positive, --grace not negative")
	}
	watched := settings.List(*groups)
	if len(watched) == 0 {
		tg, err := watchdog.TelegrafGroups(*telegrafConf)
		if err != nil {
			return env.Fail("%v (or give --groups)", err)
		}
		watched = append([]string{*job}, tg...)
	}
	conn, err := serviceConn(*kafka, kafkaadmin.Watchdog)
	if err != nil {
		return env.UsageError("%v", err)
	}
	a := influx.AuthFromEnv()
	a.User, a.PasswordFile, a.CAFile = *influxUser, *influxPasswordFile, *influxCA
	ic, err := influx.New(*influxURL, *influxDB, a)
	if err != nil {
		return env.UsageError("%v", err)
	}

	fc, err := flink.New(*flinkURL, *flinkCert)
	if err != nil {
		return env.UsageError("%v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	err = watchdog.Serve(ctx, watchdog.Options{Kafka: conn, Flink: fc, Influx: ic,
		Job: *job, Groups: watched, Interval: *interval, Grace: *grace, Lookback: *lookback, RestoreSince: *restoreSince,
		Timeout: *timeout, MaxHosts: *maxHosts, Thresholds: th, StatusFile: *statusFile, Log: logWriter{env}})
	if err != nil {
		return env.Fail("%v", err)
	}
	logf(env, "stopped")
	return cli.ExitOK
}

// serviceConn is a daemon's Kafka connection: the environment's identity, else on a native
// stack host the daemon's own principal with its password file among the stack's secrets.
func serviceConn(bootstrap, principal string) (kafkaconn.Conn, error) {
	c, err := kafkaconn.Parse(bootstrap)
	if err != nil {
		return c, err
	}
	sec := kafkaconn.FromEnv()
	if os.Getenv(settings.KafkaUser.Env) == "" {
		if pw := settings.LocalSecret("kafka-" + principal + ".password"); pw != "" {
			sec.User, sec.PasswordFile = principal, pw
		}
	}
	return c.WithSecurity(sec)
}

// logWriter prefixes each line the watchdog logs with the time and the command's name.
type logWriter struct{ env *cli.Env }

func (w logWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		logf(w.env, "%s", line)
	}
	return len(p), nil
}

func logf(env *cli.Env, format string, args ...any) {
	fmt.Fprintf(env.Stderr, "%s %s: %s\n", time.Now().UTC().Format(time.RFC3339), env.Name, fmt.Sprintf(format, args...))
}

const watchdogStatusDoc = `Prints the watchdog's status file: whether the watchdog runs (a status older than three intervals
means monitoring stopped) and the pipeline is healthy, each component's state, since when and why,
and each agent's last record and clock skew. Exits 0 when the watchdog runs and nothing is
degraded, 1 otherwise (no status file, a stale one, or a degraded component).`

func runWatchdogStatus(env *cli.Env, args []string) int {
	env = &cli.Env{Name: env.Name + " status", Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr}
	fs := env.FlagSet("[--status-file FILE] [--json]", watchdogStatusDoc)
	statusFile := settings.WatchdogStatus.String(fs.FlagSet)
	asJSON := fs.Bool("json", false, "print the status file as it is")
	if code, done := fs.Parse(args); done {
		return code
	}
	st, err := watchdog.ReadStatus(*statusFile)
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(env.Stdout, "watchdog: NOT RUNNING: no status file at %s (monitoring is off)\n", *statusFile)
		return cli.ExitFailure
	}
	if err != nil {
		return env.Fail("%v", err)
	}
	now := time.Now()
	if *asJSON {
		b, _ := os.ReadFile(*statusFile)
		env.Stdout.Write(b)
	} else if err := watchdog.WriteTable(env.Stdout, st, now); err != nil {
		return env.Fail("%v", err)
	}
	if stale, _ := st.Stale(now); stale || !st.Healthy() {
		return cli.ExitFailure
	}
	return cli.ExitOK
}
