// Package agent wires longhaul-probe together: the scheduler's results are encoded and
// appended to the spool, the publisher drains the spool into Kafka, and the health endpoint
// reports on all of it.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"

	"longhaul/collectors/config"
	"longhaul/collectors/publish"
	"longhaul/collectors/schedule"
	"longhaul/ingest/schema"
	"longhaul/internal/kafkaconn"
	"longhaul/probes/probe"
)

// Options are the agent's seams; zero values are the production ones.
type Options struct {
	Version string
	Logger  *slog.Logger
	Clock   schedule.Clock // default: the wall clock
	Rand    *rand.Rand     // default: randomly seeded
	Exec    probe.Exec     // default: SystemExec
	// LookPath finds the probes' tools for the admission check at start; default LookPath
	// (what SystemExec runs them with).
	LookPath func(string) (string, error)
	// Producer replaces the franz-go client built from the config (and dialled again at each
	// re-check while Kafka refuses the agent); the caller owns it.
	Producer publish.Producer
	// Publisher tuning (backoffs, ping period); MaxInFlight comes from the config.
	Publisher publish.PublisherOptions
	// PSConfigClient replaces the HTTPS client that fetches the pSConfig template (tests).
	PSConfigClient *http.Client
	// Observe, if set, sees every result once its samples are in the spool (for tests and
	// tracing; it must not block).
	Observe func(schedule.Result)
}

// Agent is one running longhaul-probe.
type Agent struct {
	cfg     *config.Config
	opt     Options
	log     *slog.Logger
	spool   *publish.Spool
	pub     *publish.Publisher
	sched   *schedule.Scheduler
	enc     *encoder
	stats   *runStats
	sinkMu  sync.Mutex // one run's batch at a time: spool order = Observe order
	started time.Time
	// ownTasks are the config file's (probe, target) pairs; plan adds the pSConfig
	// template's (nil without psconfig.url).
	ownTasks []schedule.Task
	plan     *planner
	psb      *psBridge // nil without pscheduler_bridge
	req      *requests // nil with probe_requests.enabled false
}

// New builds the probes, opens the spool (reloading what a previous run left) and creates
// the Kafka client. Nothing runs until Run.
func New(cfg *config.Config, opt Options) (*Agent, error) {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Exec == nil {
		opt.Exec = SystemExec
	}
	if opt.LookPath == nil {
		opt.LookPath = LookPath
	}
	if opt.Clock == nil {
		opt.Clock = schedule.RealClock{}
	}
	a := &Agent{cfg: cfg, opt: opt, log: opt.Logger, started: opt.Clock.Now()}
	insts, err := cfg.Build(opt.Exec)
	if err != nil {
		return nil, err
	}
	a.admit(insts)
	a.ownTasks = schedule.TasksFrom(insts)
	tasks := a.ownTasks
	if cfg.PSConfig.Enabled() {
		// The first plan before anything runs; without it (the source cannot be read, the
		// document is invalid) the agent starts on its own probes, says so in /health and
		// tries again every minute.
		a.plan = newPlanner(cfg, opt)
		ctx, cancel := context.WithTimeout(context.Background(), cfg.PSConfig.Timeout.D()+time.Second)
		if _, err := a.plan.load(ctx); err != nil {
			a.log.Error("psconfig: no plan from the template yet; only the config's own probes run until it loads",
				"source", cfg.PSConfig.URL, "err", err)
		}
		cancel()
		a.warnPlan()
		tasks = append(append([]schedule.Task(nil), tasks...), a.plan.current()...)
		if h := a.plan.health(); h.Unsupported > 0 {
			a.log.Warn("psconfig: pairs this host schedules and cannot run (longhaul-probe plan lists them)",
				"unsupported", h.Unsupported, "first", h.Pairs[0].Task+" "+h.Pairs[0].Src+"→"+h.Pairs[0].Dst+": "+h.Pairs[0].Reason)
		}
	}
	reg, err := loadSchemas(cfg.SchemasDir, a.log)
	if err != nil {
		return nil, err
	}
	a.enc = &encoder{reg: reg, now: opt.Clock.Now}
	a.stats = newRunStats(tasks)
	a.spool, err = publish.Open(cfg.Spool.Dir, publish.Options{
		MaxBytes: int64(cfg.Spool.MaxBytes), SegmentBytes: int64(cfg.Spool.SegmentBytes),
		Fsync: cfg.Spool.Fsync, FsyncInterval: cfg.Spool.FsyncInterval.D(), Logger: a.log,
	})
	if err != nil {
		return nil, err
	}
	popt := opt.Publisher
	popt.MaxInFlight, popt.Logger = cfg.Kafka.MaxInFlight, a.log
	popt.Who, popt.Topic = a.who(), cfg.TopicOf()
	prod := opt.Producer
	if prod == nil {
		// The publisher owns the clients: it closes a refused one and dials again at each
		// re-check, reading the credential files anew.
		popt.Redial = a.dial
		if prod, err = a.dial(); err != nil {
			a.spool.Close()
			return nil, err
		}
	}
	a.pub = publish.NewPublisher(a.spool, prod, popt)
	if cfg.PSBridge.Enabled() {
		if a.psb, err = newPSBridge(cfg.PSBridge); err != nil {
			a.closeAll()
			return nil, err
		}
	}
	a.sched = schedule.New(tasks, a.sink, schedule.Options{Src: cfg.Src, MaxBackground: cfg.Schedule.MaxBackground,
		Clock: opt.Clock, Rand: opt.Rand, Logger: a.log})
	if cfg.ProbeRequests.On() {
		a.req = newRequests(cfg.ProbeRequests.MaxPerHour, cfg.ProbeRequests.Group, reg)
	}
	a.log.Info("longhaul-probe configured", append([]any{"src", cfg.Src, "config", cfg.File(), "probes", len(insts),
		"runs_per_interval", len(tasks), "spool", cfg.Spool.Dir, "kafka", cfg.Kafka.Bootstrap,
		"security", cfg.Kafka.Security + " (from " + cfg.SecurityFrom(config.SecurityKey) + ")"},
		append(popt.Who, "validation", reg != nil)...)...)
	return a, nil
}

// dial makes a Kafka client on the config's connection, reading the password file (and the
// CA and certificate files) as they are now.
func (a *Agent) dial() (publish.Producer, error) {
	conn, err := a.cfg.KafkaConn()
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	cl, err := publish.NewClient(conn, a.cfg.Kafka.ClientID, a.cfg.Kafka.MaxInFlight, a.log)
	if err != nil {
		return nil, fmt.Errorf("kafka client: %w", err)
	}
	return cl, nil
}

// who names the agent's Kafka identity in logs: the user and where its password comes from,
// with where each came from; never the password.
func (a *Agent) who() []any {
	k := a.cfg.Kafka
	if k.Security != kafkaconn.SASLSSL {
		if k.TLS.CertFile != "" {
			return []any{"client_cert", k.TLS.CertFile}
		}
		return nil
	}
	return []any{"user", k.SASL.User + a.from(config.UserKey), "password", a.passwordFrom()}
}

// from is " (from VARIABLE)" when the environment gave the setting, else "".
func (a *Agent) from(key string) string {
	if f := a.cfg.SecurityFrom(key); f != key {
		return " (from " + f + ")"
	}
	return ""
}

// passwordFrom says where the password is read: the file, or the environment variable.
func (a *Agent) passwordFrom() string {
	if a.cfg.Kafka.SASL.PasswordFile == "" {
		return "from " + config.PasswordEnv
	}
	return "in " + a.cfg.Kafka.SASL.PasswordFile + a.from(config.PasswordFileKey)
}

// admit logs, before anything runs, every tool a probe needs that is not on PATH (the same
// check as `longhaul-probe check`), with what that costs. The probe still runs: a run whose
// tool is missing is published with error class tool_missing (a snapshot without ip, with no
// interface), so the gap shows downstream too; installing the tool mends it without a
// restart.
func (a *Agent) admit(insts []config.Instance) {
	for _, tc := range a.cfg.CheckTools(insts, a.opt.LookPath) {
		if tc.Missing != nil {
			a.log.Warn("probe cannot run: tool missing", "probe", tc.ProbeID, "kind", tc.Kind, "tool", tc.Tool,
				"problem", tc.Missing.Error())
		}
	}
}

// loadSchemas returns the registry samples are validated against, or nil when disabled.
func loadSchemas(dir string, log *slog.Logger) (*schema.Registry, error) {
	if dir == "off" {
		log.Warn("schemas_dir: off: samples are published without validation")
		return nil, nil
	}
	reg, err := schema.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("schemas_dir: %w", err)
	}
	return reg, nil
}

// Run runs the agent until ctx ends: the health endpoint, the publisher and the scheduler.
// On the way out, runs in progress are cancelled and their results spooled, what is in
// flight is flushed to Kafka (for up to the flush timeout), and the spool is closed; what
// Kafka has not acknowledged is sent after the next start.
func (a *Agent) Run(ctx context.Context) error {
	var srv *http.Server
	if a.cfg.Health.Listen != config.HealthOff {
		ln, err := net.Listen("tcp", a.cfg.Health.Listen)
		if err != nil {
			a.closeAll()
			return fmt.Errorf("health.listen: %w", err)
		}
		srv = &http.Server{Handler: a.Handler(), ReadHeaderTimeout: 5 * time.Second}
		go srv.Serve(ln)
		a.log.Info("health endpoint", "url", "http://"+ln.Addr().String()+"/health")
	}
	pubCtx, stopPub := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a.pub.Run(pubCtx) }()
	go func() { defer wg.Done(); a.healthLoop(pubCtx) }()
	if a.plan != nil {
		planCtx, stopPlan := context.WithCancel(ctx)
		defer stopPlan()
		wg.Add(1)
		go func() { defer wg.Done(); a.planLoop(planCtx) }()
	}

	var bridgeSrv *http.Server
	if a.psb != nil {
		var err error
		if bridgeSrv, err = a.servePSBridge(); err != nil {
			stopPub()
			wg.Wait()
			shutdown(srv)
			a.closeAll()
			return err
		}
		if a.psb.cfg.Topic != "" {
			wg.Add(1)
			go func() { defer wg.Done(); a.consumePSchedulerTopic(ctx) }()
		}
		wg.Add(1)
		go func() { defer wg.Done(); a.shareSeen(ctx) }()
	}

	if a.req != nil {
		wg.Add(1)
		go func() { defer wg.Done(); a.consumeProbeRequests(ctx) }()
	}

	err := a.sched.Run(ctx)
	shutdown(bridgeSrv) // posts in progress finish into the spool before the publisher stops
	stopPub()           // the plan loop and the Kafka input end with ctx
	wg.Wait()
	shutdown(srv)
	a.logHealth()
	return errors.Join(err, a.closeAll())
}

func (a *Agent) closeAll() error {
	a.pub.Close()
	var err error
	if a.psb != nil {
		err = a.psb.seen.Close()
	}
	return errors.Join(err, a.spool.Close())
}

// shutdown stops an HTTP server, letting requests in progress finish for up to 2 s.
func shutdown(srv *http.Server) {
	if srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	srv.Shutdown(ctx)
	cancel()
}

func (a *Agent) healthLoop(ctx context.Context) {
	t := time.NewTicker(a.cfg.Health.LogEvery.D())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			a.logHealth()
		}
	}
}
