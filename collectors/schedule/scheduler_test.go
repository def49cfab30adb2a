package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
	"longhaul/probes/probe"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// blockingProbe is an exclusive probe whose runs last until the test releases them.
type blockingProbe struct {
	started chan probe.Job
	release chan struct{}
}

func (p *blockingProbe) Exclusive() bool        { return true }
func (p *blockingProbe) Timeout() time.Duration { return 24 * time.Hour }
func (p *blockingProbe) Run(ctx context.Context, job probe.Job) []sample.Sample {
	p.started <- job
	select {
	case <-p.release:
	case <-ctx.Done():
	}
	s := sample.NewThroughput(job.Src, job.Dst, job.ProbeID, job.RunID, sample.RecordSummary, job.Start.UnixMilli())
	s.Tool, s.Protocol, s.BitsPerSecond = "iperf3", "tcp", sample.F64(9.4e9)
	return []sample.Sample{s}
}

// orderedIDs finds two probe ids whose first slots from t0 come in order, 5+ minutes apart.
func orderedIDs(t *testing.T) (string, string, time.Time, time.Time) {
	for i := 0; i < 1000; i++ {
		a, b := fmt.Sprintf("tput-a%d", i), fmt.Sprintf("tput-b%d", i)
		sa := slotAtOrAfter(t0, time.Hour, Phase("cern", a, "fnal", time.Hour))
		sb := slotAtOrAfter(t0, time.Hour, Phase("cern", b, "bnl", time.Hour))
		if sb.Sub(sa) > 5*time.Minute {
			return a, b, sa, sb
		}
	}
	t.Fatal("no ordered pair of probe ids")
	return "", "", time.Time{}, time.Time{}
}

func waitTimer(t *testing.T, c *FakeClock) {
	t.Helper()
	if !c.WaitTimers(1, 5*time.Second) {
		t.Fatal("the scheduler is not waiting on a timer")
	}
}

func TestSchedulerReportsAnExclusiveRunBlockedPastItsDeadlineAsNotStarted(t *testing.T) {
	idA, idB, slotA, slotB := orderedIDs(t)
	clock := NewFakeClock(t0)
	long := &blockingProbe{started: make(chan probe.Job, 1), release: make(chan struct{})}
	a := task(idA, "fnal", long, time.Hour, 0)
	b := task(idB, "bnl", exclusive, time.Hour, 0)
	b.MaxWait = time.Minute
	results := make(chan Result, 10)
	s := New([]Task{a, b}, func(r Result) { results <- r }, Options{Src: "cern", MaxBackground: 2, Clock: clock, Rand: seeded(), Logger: quiet})
	stop := running(t, s)

	waitTimer(t, clock)
	clock.Advance(slotA.Sub(t0))
	jobA := <-long.started
	if jobA.ProbeID != idA || !jobA.Start.Equal(slotA) || jobA.Target != "fnal.example.org" || jobA.Src != "cern" {
		t.Fatalf("job A: %+v", jobA)
	}
	waitTimer(t, clock)
	clock.Advance(slotB.Sub(slotA)) // B is due while A runs: it waits
	waitTimer(t, clock)
	select {
	case r := <-results:
		t.Fatalf("result before B's deadline: %+v", r)
	default:
	}
	clock.Advance(time.Minute) // B's deadline
	r := <-results
	if !r.NotStarted || r.Job.ProbeID != idB || !strings.Contains(r.Reason, jobA.RunID) {
		t.Fatalf("want B not started because of %s, got %+v", jobA.RunID, r)
	}
	if len(r.Samples) != 1 {
		t.Fatalf("not_started samples: %d", len(r.Samples))
	}
	reg, err := schema.Load("../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(r.Samples[0])
	if err := reg.Validate(raw); err != nil {
		t.Fatalf("not_started sample does not validate: %v\n%s", err, raw)
	}
	ts := r.Samples[0].(*sample.Throughput)
	if ts.Error.Class != sample.ErrNotStarted || ts.Record != sample.RecordSummary || ts.TS != slotB.UnixMilli() || ts.RunID == "" {
		t.Fatalf("not_started sample: %s", raw)
	}

	close(long.release)
	if r := <-results; r.NotStarted || r.Job.RunID != jobA.RunID || len(r.Samples) != 1 {
		t.Fatalf("A's result: %+v", r)
	}
	stop()
}

func TestSchedulerCancelsRunsInProgressOnShutdownAndStillDeliversTheirResults(t *testing.T) {
	idA, _, slotA, _ := orderedIDs(t)
	clock := NewFakeClock(t0)
	long := &blockingProbe{started: make(chan probe.Job, 1), release: make(chan struct{})}
	results := make(chan Result, 10)
	s := New([]Task{task(idA, "fnal", long, time.Hour, 0)}, func(r Result) { results <- r },
		Options{Src: "cern", Clock: clock, Rand: seeded(), Logger: quiet})
	stop := running(t, s)
	waitTimer(t, clock)
	clock.Advance(slotA.Sub(t0))
	<-long.started
	stop()
	if r := <-results; len(r.Samples) != 1 {
		t.Fatalf("the cancelled run's result was not delivered: %+v", r)
	}
}

func TestSchedulerWithNoTaskWaitsForShutdownWithoutSpinning(t *testing.T) {
	clock := NewFakeClock(t0)
	s := New(nil, func(Result) { t.Error("a result without tasks") }, Options{Src: "cern", Clock: clock, Rand: seeded(), Logger: quiet})
	stop := running(t, s)
	waitTimer(t, clock)
	if next, _ := clock.NextTimer(); next.Sub(t0) < time.Hour {
		t.Fatalf("woke at %s", next)
	}
	stop()
}

// running starts s in the background; stop cancels it and fails the test unless Run returns
// within 5 s.
func running(t *testing.T, s *Scheduler) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error)
	go func() { stopped <- s.Run(ctx) }()
	return func() {
		t.Helper()
		cancel()
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return after cancel")
		}
	}
}
