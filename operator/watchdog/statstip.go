package watchdog

import (
	"sync"
	"time"
)

// StatsTip follows the newest statistic (its ts) of the stats topic as records arrive, so that
// the InfluxDB check can ask which one is due in InfluxDB: the newest that arrived at least a
// delay ago. It keeps one entry per rise of the newest ts, pruned to what a question can still
// need. Safe for concurrent use.
type StatsTip struct {
	mu      sync.Mutex
	entries []tipEntry // arrival order; ts rising
}

type tipEntry struct {
	arrived time.Time
	ts      time.Time
}

// Record notes a statistic of event time ts that reached the broker at arrived.
func (s *StatsTip) Record(arrived, ts time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.entries); n > 0 && !ts.After(s.entries[n-1].ts) {
		return
	}
	s.entries = append(s.entries, tipEntry{arrived, ts})
}

// Due is the newest ts among statistics that arrived at or before now − delay (zero: none). It
// drops the entries that no later question needs.
func (s *StatsTip) Due(now time.Time, delay time.Duration) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	cut := now.Add(-delay)
	i := -1
	for j, e := range s.entries {
		if !e.arrived.After(cut) {
			i = j
		}
	}
	if i < 0 {
		return time.Time{}
	}
	s.entries = s.entries[i:] // the due one stays: the next question may still need it
	return s.entries[0].ts
}
