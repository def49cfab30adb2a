package schedule

import (
	"errors"
	"testing"
	"time"

	"longhaul/collectors/probe"
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
