package schedule

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"longhaul/probes/probe"
)

// core is the scheduler's logic without goroutines or clocks: given the time, it says which
// runs start and which cannot start in their slot; told a run ended, it frees its place. The
// Scheduler drives it with a Clock; tests drive it with a simulated one.
type core struct {
	src   string
	tasks []*taskState
	rnd   *rand.Rand
	maxBg int
	ready []*run // waiting for their turn, in turn order (waitsBefore)
	excl  *run   // the exclusive run in progress
	bg    int    // background runs in progress
	ids   runIDs
}

type taskState struct {
	Task
	phase   time.Duration
	slot    time.Time // start of the next slot
	planned time.Time // its planned start: slot + slip
	running *run
}

// run is one planned run of a task.
type run struct {
	task     *taskState
	job      probe.Job
	slot     time.Time // the start of its slot
	planned  time.Time // slot + slip
	deadline time.Time // it must start before this, or it is reported not_started
	reason   string    // what last kept it from starting
}

func newCore(src string, tasks []Task, maxBg int, rnd *rand.Rand, now time.Time) *core {
	c := &core{src: src, rnd: rnd, maxBg: maxBg, ids: runIDs{boot: rnd.Uint32()}}
	for _, t := range tasks {
		c.tasks = append(c.tasks, c.newTask(t, now))
	}
	return c
}

func (c *core) newTask(t Task, now time.Time) *taskState {
	ts := &taskState{Task: t, phase: Phase(c.src, t.ProbeID, t.Dst, t.Interval)}
	ts.slot = slotAtOrAfter(now, t.Interval, ts.phase)
	ts.planned = ts.slot.Add(slip(c.rnd, t.Jitter))
	return ts
}

// replace swaps the task list for a new plan. A task of the same (probe id, target), interval
// and exclusivity keeps its state, so its next slot and planned start do not move, and takes
// the new probe, address, jitter and max wait from its next run on; any other is new. Runs
// already started or waiting keep the state they were planned with: they end, start or are
// reported as before. It returns how many tasks were added and removed.
func (c *core) replace(tasks []Task, now time.Time) (added, removed int) {
	type key struct{ probeID, dst string }
	old := make(map[key]*taskState, len(c.tasks))
	for _, ts := range c.tasks {
		old[key{ts.ProbeID, ts.Dst}] = ts
	}
	next := make([]*taskState, 0, len(tasks))
	for _, t := range tasks {
		k := key{t.ProbeID, t.Dst}
		ts, ok := old[k]
		if ok && ts.Interval == t.Interval && ts.Probe.Exclusive() == t.Probe.Exclusive() {
			delete(old, k)
			ts.Task = t
			next = append(next, ts)
			continue
		}
		added++
		next = append(next, c.newTask(t, now))
	}
	c.tasks = next
	return added, len(old)
}

// next returns when something is next due: a planned start or a waiting run's deadline.
func (c *core) next() time.Time {
	var t time.Time
	for _, ts := range c.tasks {
		if t.IsZero() || ts.planned.Before(t) {
			t = ts.planned
		}
	}
	for _, r := range c.ready {
		if t.IsZero() || r.deadline.Before(t) {
			t = r.deadline
		}
	}
	return t
}

// step plans the runs due by now, then starts what may start and gives up on what has waited
// past its deadline. Started runs have job.Start = now.
func (c *core) step(now time.Time) (start, expired []*run) {
	c.plan(now)
	kept := c.ready[:0]
	for _, r := range c.ready {
		switch {
		case !now.Before(r.deadline):
			if r.reason == "" { // the deadline came before it was ever considered
				r.reason = c.whyWaiting(r)
			}
			expired = append(expired, r)
		case c.mayStart(r):
			c.begin(r, now)
			start = append(start, r)
		default:
			r.reason = c.whyWaiting(r) // what blocks it now; reported if it never starts
			kept = append(kept, r)
		}
	}
	c.ready = kept
	return start, expired
}

// plan turns every planned start reached by now into a waiting run.
func (c *core) plan(now time.Time) {
	added := false
	for _, ts := range c.tasks {
		for !ts.planned.After(now) {
			r := &run{task: ts, slot: ts.slot, planned: ts.planned}
			ts.slot = ts.slot.Add(ts.Interval)
			ts.planned = ts.slot.Add(slip(c.rnd, ts.Jitter))
			// A run never waits past its MaxWait, nor past the pair's next planned run.
			r.deadline = r.planned.Add(ts.MaxWait)
			if ts.planned.Before(r.deadline) {
				r.deadline = ts.planned
			}
			r.job = probe.Job{Src: c.src, Dst: ts.Dst, Target: ts.Address, ProbeID: ts.ProbeID,
				RunID: c.ids.next(r.planned), Start: r.planned, Labels: ts.Labels, Screens: ts.Screens}
			c.ready = append(c.ready, r)
			added = true
		}
	}
	if added {
		c.order()
	}
}

// order puts the waiting runs in turn order: the runs asked for (a confirmation, which decides
// whether a link pages) before the planned ones, each in planned order. Asked-for runs are few
// (the agent's probe_requests.max_per_hour), so a planned run waits behind at most that many.
func (c *core) order() {
	sort.SliceStable(c.ready, func(i, j int) bool { return waitsBefore(c.ready[i], c.ready[j]) })
}

func waitsBefore(a, b *run) bool {
	if asked, other := a.job.RequestID != "", b.job.RequestID != ""; asked != other {
		return asked
	}
	return a.planned.Before(b.planned)
}

func (c *core) mayStart(r *run) bool {
	if r.task.running != nil {
		return false
	}
	if r.task.Probe.Exclusive() {
		return c.excl == nil
	}
	return c.bg < c.maxBg
}

func (c *core) begin(r *run, now time.Time) {
	r.job.Start = now
	r.task.running = r
	if r.task.Probe.Exclusive() {
		c.excl = r
	} else {
		c.bg++
	}
}

// whyWaiting says what kept r from starting.
func (c *core) whyWaiting(r *run) string {
	waited := r.deadline.Sub(r.planned).Round(time.Millisecond)
	switch {
	case r.task.running != nil:
		p := r.task.running
		return fmt.Sprintf("not started within %s of its planned start %s: the previous run %s of %s to %s, started %s, was still running",
			waited, stamp(r.planned), p.job.RunID, p.job.ProbeID, p.job.Dst, stamp(p.job.Start))
	case r.task.Probe.Exclusive() && c.excl != nil:
		p := c.excl
		return fmt.Sprintf("not started within %s of its planned start %s: exclusive run %s of %s to %s, started %s, was still running",
			waited, stamp(r.planned), p.job.RunID, p.job.ProbeID, p.job.Dst, stamp(p.job.Start))
	case !r.task.Probe.Exclusive() && c.bg >= c.maxBg:
		return fmt.Sprintf("not started within %s of its planned start %s: %d background runs (the limit) were running",
			waited, stamp(r.planned), c.bg)
	default:
		return fmt.Sprintf("not started within %s of its planned start %s: the agent did not get to it (suspended or overloaded)",
			waited, stamp(r.planned))
	}
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// finish frees the place of a run that ended.
func (c *core) finish(r *run) {
	if r.task.running == r {
		r.task.running = nil
	}
	if c.excl == r {
		c.excl = nil
	} else if !r.task.Probe.Exclusive() {
		c.bg--
	}
}
