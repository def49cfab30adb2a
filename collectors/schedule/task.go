package schedule

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"longhaul/collectors/config"
	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// Task is one (probe, target) pair: what the scheduler runs at an interval.
type Task struct {
	ProbeID  string
	Kind     string
	Dst      string // the target's name
	Address  string // what the tool is pointed at
	Shared   bool   // other hosts test this target too
	Probe    probe.Probe
	Interval time.Duration
	Jitter   time.Duration // random slip in [0, Jitter)
	MaxWait  time.Duration // how long past its planned start a run may wait for its turn
	Labels   sample.Labels // put on every sample of its runs (from a pSConfig plan)
	Screens  string        // the throughput probe this one is a screening burst for (config `screens`)
}

// TasksFrom expands built probe instances into one task per target.
func TasksFrom(insts []config.Instance) []Task {
	var out []Task
	for _, in := range insts {
		for _, t := range in.Targets {
			out = append(out, Task{
				ProbeID: in.Conf.ID, Kind: in.Conf.Kind, Dst: t.Name, Address: t.Address, Shared: t.Shared,
				Probe: in.Probe, Interval: in.Conf.Interval.D(), Jitter: in.Conf.Jitter.D(), MaxWait: in.Conf.MaxWait.D(),
				Screens: in.Conf.Screens,
			})
		}
	}
	return out
}

// Phase is the offset of the task's slots within its interval: slot k starts at
// k·interval + phase since the Unix epoch. It is a hash of (src, probe id, target), so it is
// stable across restarts, differs from pair to pair (a mesh does not start every test at the
// top of the hour) and, src being part of it, differs between the hosts that share a target:
// their exclusive runs against it land at different offsets. That is a spread, not a lock:
// with h hosts testing one target for d every interval I, the chance that two runs overlap
// grows with h·(d+jitter)/I; a run that still collides gets the target's "server busy"
// answer and is reported as such (error class server_busy).
func Phase(src, probeID, dst string, interval time.Duration) time.Duration {
	if interval <= 0 {
		return 0
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%s|%s", src, probeID, dst)
	return time.Duration(h.Sum64() % uint64(interval))
}

// slotAtOrAfter returns the first slot start ≥ t of a task with the given interval and phase.
func slotAtOrAfter(t time.Time, interval, phase time.Duration) time.Time {
	n := t.UnixNano() - int64(phase)
	k := n / int64(interval) // truncates towards zero: the ceiling for negative n
	if n > 0 && n%int64(interval) != 0 {
		k++
	}
	return time.Unix(0, k*int64(interval)+int64(phase))
}

// slip draws the random delay of one run within its slot.
func slip(rnd *rand.Rand, jitter time.Duration) time.Duration {
	if jitter <= 0 {
		return 0
	}
	return time.Duration(rnd.Int64N(int64(jitter)))
}

// runIDs makes run ids unique within a process (a counter) and across restarts and hosts
// (the planned time and a random boot id): "20260101T120000Z-9f2c41d7-17".
type runIDs struct {
	boot uint32
	n    uint64
}

func (r *runIDs) next(planned time.Time) string {
	r.n++
	return fmt.Sprintf("%s-%08x-%d", planned.UTC().Format("20060102T150405Z"), r.boot, r.n)
}
