package schedule

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// Result is one run's outcome, handed to the Sink: the samples it produced or, for a run that
// could not start in its slot, NotStarted with the reason (and the not_started samples, if
// the kind has them).
type Result struct {
	Job        probe.Job
	Kind       string
	Samples    []sample.Sample
	Ended      time.Time
	NotStarted bool
	Reason     string
}

// Sink receives results. It is called from several goroutines at once.
type Sink func(Result)

// Options of a Scheduler.
type Options struct {
	Src           string
	MaxBackground int
	Clock         Clock      // default RealClock
	Rand          *rand.Rand // default seeded from the runtime's random source
	Logger        *slog.Logger
}

// Scheduler runs tasks on their slots and hands every result to a sink.
type Scheduler struct {
	opt     Options
	tasks   []Task
	sink    Sink
	log     *slog.Logger
	running atomic.Int64 // runs started and not yet seen to end by the loop

	mu      sync.Mutex
	pending []Task           // tasks given by SetTasks, not yet taken by the loop
	known   map[taskKey]bool // the tasks of the newest plan, for Request
	extras  []Extra          // runs asked for by Request, not yet taken by the loop
	changed chan struct{}    // SetTasks wakes the loop (capacity 1)
}

// Running is the number of runs in progress.
func (s *Scheduler) Running() int { return int(s.running.Load()) }

// New makes a scheduler; Run starts it.
func New(tasks []Task, sink Sink, opt Options) *Scheduler {
	if opt.Clock == nil {
		opt.Clock = RealClock{}
	}
	if opt.Rand == nil {
		opt.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if opt.MaxBackground < 1 {
		opt.MaxBackground = 1
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	return &Scheduler{opt: opt, tasks: tasks, sink: sink, log: opt.Logger, changed: make(chan struct{}, 1), known: keysOf(tasks)}
}

// SetTasks replaces the tasks while the scheduler runs (a new plan): a task that stays (same
// probe id and target, same interval and exclusivity) keeps its slots; a new one takes its
// first slot from now; a removed one plans no more runs, and what it had started or planned
// still ends or is reported. Safe from any goroutine; before Run, it replaces what Run starts with.
func (s *Scheduler) SetTasks(tasks []Task) {
	s.mu.Lock()
	s.pending = append([]Task{}, tasks...)
	if s.pending == nil {
		s.pending = []Task{}
	}
	s.known = keysOf(tasks)
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// takePending returns the tasks given by SetTasks since the last call, or nil.
func (s *Scheduler) takePending() []Task {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pending
	s.pending = nil
	return p
}

type ended struct {
	r       *run
	samples []sample.Sample
}

// Run schedules until ctx ends, then cancels the runs in progress and waits for them (their
// results still go to the sink).
func (s *Scheduler) Run(ctx context.Context) error {
	clock := s.opt.Clock
	tasks := s.tasks
	if p := s.takePending(); p != nil {
		tasks = p
	}
	c := newCore(s.opt.Src, tasks, s.opt.MaxBackground, s.opt.Rand, clock.Now())
	done := make(chan ended)
	var wg sync.WaitGroup
	runCtx, cancelRuns := context.WithCancel(ctx)
	defer cancelRuns()
	for {
		now := clock.Now()
		start, expired := c.step(now)
		for _, r := range expired {
			s.notStarted(r, now)
		}
		for _, r := range start {
			s.running.Add(1)
			wg.Add(1)
			// The run takes a copy of its task and job: a new plan (SetTasks) may update the
			// task's state while the run goes on.
			go func(r *run, t Task, job probe.Job) {
				defer wg.Done()
				done <- ended{r, s.execute(runCtx, t, job)}
			}(r, r.task.Task, r.job)
		}
		wake := 24 * time.Hour // no task at all: only a run's end or ctx can wake the loop
		if next := c.next(); !next.IsZero() {
			wake = next.Sub(now)
		}
		timer := clock.NewTimer(wake)
		select {
		case <-ctx.Done():
			timer.Stop()
			cancelRuns()
			go func() { wg.Wait(); close(done) }()
			for range done { // runs in progress end promptly once cancelled
			}
			return nil
		case e := <-done:
			timer.Stop()
			c.finish(e.r)
			s.running.Add(-1)
		case <-s.changed:
			timer.Stop()
			if p := s.takePending(); p != nil {
				added, removed := c.replace(p, clock.Now())
				s.log.Info("scheduler: tasks replaced", "tasks", len(p), "added", added, "removed", removed)
			}
			for _, x := range s.takeExtras() {
				if !c.extra(x, clock.Now()) {
					s.log.Warn("scheduler: requested run dropped: the plan no longer has its probe", "probe", x.ProbeID, "dst", x.Dst, "request", x.RequestID)
				}
			}
		case <-timer.C():
		}
	}
}

// execute runs one job under its probe's timeout and hands the result to the sink.
func (s *Scheduler) execute(ctx context.Context, t Task, job probe.Job) []sample.Sample {
	timeout := t.Probe.Timeout()
	if timeout <= 0 { // a kind without a bound of its own: one interval
		timeout = t.Interval
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	samples := t.Probe.Run(ctx, job)
	s.sink(Result{Job: job, Kind: t.Kind, Samples: samples, Ended: s.opt.Clock.Now()})
	return samples
}

func (s *Scheduler) notStarted(r *run, now time.Time) {
	t := &r.task.Task
	r.job.Start = r.planned
	s.log.Warn("run not started in its slot", "probe", t.ProbeID, "dst", t.Dst, "run_id", r.job.RunID, "reason", r.reason)
	s.sink(Result{Job: r.job, Kind: t.Kind, Samples: notStartedSamples(t, r.job, r.reason),
		Ended: now, NotStarted: true, Reason: r.reason})
}
