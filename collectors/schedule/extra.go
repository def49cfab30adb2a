package schedule

import (
	"fmt"
	"time"

	"longhaul/probes/probe"
)

// Extra is one run asked for outside a task's slots (a probe request of the Flink job): the
// task of ProbeID towards Dst, as soon as it may start, by Deadline or reported not_started.
// Every sample of the run carries RequestID.
type Extra struct {
	ProbeID   string
	Dst       string
	RequestID string
	Deadline  time.Time
}

// ErrNoTask is Request's answer for a probe and target this host does not run.
type ErrNoTask struct{ ProbeID, Dst string }

func (e ErrNoTask) Error() string {
	return fmt.Sprintf("no probe %q towards %q on this host", e.ProbeID, e.Dst)
}

// Request queues an extra run. It waits for its turn like any run: never beside another run of
// its task, nor, for an exclusive probe, beside another exclusive run. Safe from any goroutine.
func (s *Scheduler) Request(x Extra) error {
	s.mu.Lock()
	known := s.known[taskKey{x.ProbeID, x.Dst}]
	if known {
		s.extras = append(s.extras, x)
	}
	s.mu.Unlock()
	if !known {
		return ErrNoTask{x.ProbeID, x.Dst}
	}
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return nil
}

type taskKey struct{ probeID, dst string }

func keysOf(tasks []Task) map[taskKey]bool {
	out := make(map[taskKey]bool, len(tasks))
	for _, t := range tasks {
		out[taskKey{t.ProbeID, t.Dst}] = true
	}
	return out
}

// takeExtras returns the runs asked for since the last call.
func (s *Scheduler) takeExtras() []Extra {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := s.extras
	s.extras = nil
	return x
}

// extra adds a waiting run of the task now; false when the plan no longer has the task.
func (c *core) extra(x Extra, now time.Time) bool {
	for _, ts := range c.tasks {
		if ts.ProbeID != x.ProbeID || ts.Dst != x.Dst {
			continue
		}
		// a deadline already past is reported not_started at the next step, with the request id
		r := &run{task: ts, slot: now, planned: now, deadline: x.Deadline}
		r.job = probe.Job{Src: c.src, Dst: ts.Dst, Target: ts.Address, ProbeID: ts.ProbeID,
			RunID: c.ids.next(now), Start: now, Labels: ts.Labels, Screens: ts.Screens, RequestID: x.RequestID}
		c.ready = append(c.ready, r)
		c.order()
		return true
	}
	return false
}
