package schedule

import (
	"errors"
	"strings"
	"testing"
	"time"

	"longhaul/probes/probe"
)

// A requested run starts at once when nothing runs, waits for an exclusive run in progress, and
// carries its request id; a run that cannot start by its deadline is reported not_started with
// the id; a probe the host does not run is refused at once.
func TestARequestedRunTakesItsExclusiveTurnAndCarriesItsRequest(t *testing.T) {
	clock := NewFakeClock(t0)
	long := &blockingProbe{started: make(chan probe.Job, 4), release: make(chan struct{})}
	a := task("tput-a", "fnal", long, 4*time.Hour, 0)
	b := task("tput-b", "bnl", long, 4*time.Hour, 0)
	results := make(chan Result, 10)
	s := New([]Task{a, b}, func(r Result) { results <- r }, Options{Src: "cern", MaxBackground: 2, Clock: clock, Rand: seeded(), Logger: quiet})
	stop := running(t, s)
	waitTimer(t, clock)

	var noTask ErrNoTask
	if err := s.Request(Extra{ProbeID: "tput-a", Dst: "lyon", RequestID: "r0", Deadline: t0.Add(time.Hour)}); !errors.As(err, &noTask) {
		t.Fatalf("unknown target: %v", err)
	}
	if err := s.Request(Extra{ProbeID: "tput-a", Dst: "fnal", RequestID: "r1", Deadline: t0.Add(10 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	job := <-long.started
	if job.RequestID != "r1" || job.ProbeID != "tput-a" || !job.Start.Equal(t0) {
		t.Fatalf("requested run: %+v", job)
	}
	// while it runs, a request for the other exclusive probe waits, and gives up at its deadline
	if err := s.Request(Extra{ProbeID: "tput-b", Dst: "bnl", RequestID: "r2", Deadline: t0.Add(5 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	waitTimer(t, clock)
	clock.Advance(5 * time.Minute)
	r := <-results
	if !r.NotStarted || r.Job.RequestID != "r2" || r.Job.ProbeID != "tput-b" {
		t.Fatalf("want r2 not started, got %+v", r)
	}
	long.release <- struct{}{}
	if r := <-results; r.NotStarted || r.Job.RequestID != "r1" {
		t.Fatalf("r1's result: %+v", r)
	}
	stop()
}

// A run asked for goes ahead of the planned runs waiting for the same exclusive turn: in the
// cadence story a confirming run of a collapsing link waited behind two screening bursts planned
// while another link's confirmation ran, and paged 8 s later (2026-12-02). Planned runs keep
// their own order behind it.
func TestARequestedRunGoesAheadOfPlannedRunsWaitingForTheTurn(t *testing.T) {
	long := task("tput", "fnal", exclusive, time.Hour, 0)
	burstA := task("burst", "bnl", exclusive, time.Hour, 0)
	burstB := task("burst", "lyon", exclusive, time.Hour, 0)
	c := newCore("cern", []Task{long, burstA, burstB}, 1, seeded(), t0)
	// the long run starts first; both bursts' slots come while it runs
	first := c.tasks[0]
	for _, ts := range c.tasks[1:] {
		if ts.planned.Before(first.planned) {
			first = ts
		}
	}
	start, _ := c.step(first.planned)
	if len(start) != 1 {
		t.Fatalf("started %d runs at the first slot", len(start))
	}
	running := start[0]
	var last time.Time
	for _, ts := range c.tasks {
		if ts != first && ts.planned.After(last) {
			last = ts.planned
		}
	}
	if started, _ := c.step(last); len(started) != 0 {
		t.Fatalf("a run started beside the exclusive one: %+v", started[0].job)
	}
	if !c.extra(Extra{ProbeID: first.ProbeID, Dst: first.Dst, RequestID: "r1", Deadline: last.Add(time.Hour)}, last) {
		t.Fatal("extra refused")
	}
	var order []string
	now := last
	for range 3 {
		c.finish(running)
		now = now.Add(time.Second)
		started, expired := c.step(now)
		if len(started) != 1 || len(expired) != 0 {
			t.Fatalf("at %s: started %d, expired %d", now, len(started), len(expired))
		}
		running = started[0]
		order = append(order, running.job.RequestID+"@"+running.job.Dst)
	}
	planned := []*taskState{}
	for _, ts := range c.tasks {
		if ts != first {
			planned = append(planned, ts)
		}
	}
	// the bursts in their planned order after the requested run
	a, b := planned[0], planned[1]
	if b.slot.Add(-b.Interval).Before(a.slot.Add(-a.Interval)) {
		a, b = b, a
	}
	want := []string{"r1@" + first.Dst, "@" + a.Dst, "@" + b.Dst}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Fatalf("turn order %v, want %v", order, want)
	}
}
