package schedule

import (
	"context"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// A new plan keeps the slots of the pairs that stay, starts the new ones from now and plans
// no more runs of the removed ones; a run in progress of a removed pair still ends cleanly.
func TestReplaceKeepsTheSlotsOfThePairsThatStay(t *testing.T) {
	c := newCore("cern-ps1", []Task{
		task("tput", "fnal", exclusive, time.Hour, 0),
		task("rtt", "fnal", background, time.Minute, 0),
		task("rtt", "bnl", background, time.Minute, 0),
	}, 4, seeded(), t0)
	slotOf := func(id, dst string) (time.Time, *taskState) {
		for _, ts := range c.tasks {
			if ts.ProbeID == id && ts.Dst == dst {
				return ts.planned, ts
			}
		}
		return time.Time{}, nil
	}
	// start a run of rtt→bnl, then drop that pair from the plan
	now := t0.Add(2 * time.Minute)
	started, _ := c.step(now)
	var bnlRun *run
	for _, r := range started {
		if r.task.Dst == "bnl" {
			bnlRun = r
		}
	}
	if bnlRun == nil {
		t.Fatal("rtt→bnl did not start")
	}
	tputSlot, _ := slotOf("tput", "fnal")
	later := &fakeProbe{}
	added, removed := c.replace([]Task{
		task("tput", "fnal", exclusive, time.Hour, 0),
		task("rtt", "fnal", later, time.Minute, 0),       // same pair, new probe
		task("rtt", "in2p3", background, time.Minute, 0), // new
	}, now)
	if added != 1 || removed != 1 || len(c.tasks) != 3 {
		t.Fatalf("added %d removed %d tasks %d", added, removed, len(c.tasks))
	}
	if s, _ := slotOf("tput", "fnal"); !s.Equal(tputSlot) {
		t.Errorf("tput→fnal moved from %s to %s", tputSlot, s)
	}
	if _, ts := slotOf("rtt", "fnal"); ts.Probe != probe.Probe(later) {
		t.Error("rtt→fnal does not run the new probe")
	}
	if s, _ := slotOf("rtt", "in2p3"); s.Before(now) {
		t.Errorf("rtt→in2p3 planned at %s, before the plan came (%s)", s, now)
	}
	bg := c.bg
	c.finish(bnlRun)
	if c.bg != bg-1 {
		t.Errorf("the removed pair's run did not free its place: bg %d → %d", bg, c.bg)
	}
	for _, r := range c.ready {
		if r.task.Dst == "bnl" && r.planned.After(now) {
			t.Errorf("a run of the removed pair planned after the new plan: %s", r.planned)
		}
	}
	// nothing of bnl is planned from now on
	start, _ := c.step(now.Add(10 * time.Minute))
	for _, r := range start {
		if r.task.Dst == "bnl" && r.planned.After(now) {
			t.Errorf("rtt→bnl runs after it was removed: %s", r.planned)
		}
	}
}

// SetTasks reaches a running scheduler: the new pair runs without a restart.
func TestSetTasksReachesARunningScheduler(t *testing.T) {
	clock := NewFakeClock(t0)
	ran := make(chan string, 16)
	p := &fakeProbe{run: func(_ context.Context, job probe.Job) []sample.Sample {
		ran <- job.Dst
		return nil
	}}
	s := New([]Task{task("rtt", "fnal", p, time.Minute, 0)}, func(Result) {}, Options{Src: "cern-ps1", MaxBackground: 4, Clock: clock, Rand: seeded(), Logger: quiet})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	s.SetTasks([]Task{task("rtt", "bnl", p, time.Minute, 0)})
	deadline := time.After(10 * time.Second)
	for {
		clock.Advance(time.Minute)
		select {
		case dst := <-ran:
			if dst == "bnl" {
				cancel()
				<-done
				return
			}
		case <-deadline:
			t.Fatal("the new pair never ran")
		case <-time.After(20 * time.Millisecond):
		}
	}
}
