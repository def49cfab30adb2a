package agent

import (
	"sync"
	"time"

	"longhaul/collectors/schedule"
)

// ProbeHealth is what the health endpoint says about one probe id.
type ProbeHealth struct {
	Kind        string            `json:"kind"`
	Targets     int               `json:"targets"`
	Runs        uint64            `json:"runs"`        // runs that ended (successful or not)
	NotStarted  uint64            `json:"not_started"` // runs that could not start in their slot
	Samples     uint64            `json:"samples"`
	Errors      map[string]uint64 `json:"errors"` // failed runs by error class (not_started included)
	LastRun     *time.Time        `json:"last_run,omitempty"`
	LastSuccess *time.Time        `json:"last_success,omitempty"`
	LastError   string            `json:"last_error,omitempty"`
}

// runStats counts runs and samples per probe id.
type runStats struct {
	mu           sync.Mutex
	probes       map[string]*ProbeHealth
	spooled      uint64 // samples appended to the spool
	deadLettered uint64 // samples that did not validate, spooled as dead letters
	lost         uint64 // samples that could not be spooled (encoding or disk failure)
}

func newRunStats(tasks []schedule.Task) *runStats {
	s := &runStats{probes: map[string]*ProbeHealth{}}
	for _, t := range tasks {
		p := s.probes[t.ProbeID]
		if p == nil {
			p = &ProbeHealth{Kind: t.Kind, Errors: map[string]uint64{}}
			s.probes[t.ProbeID] = p
		}
		p.Targets++
	}
	return s
}

// setTasks follows a new plan: each probe's kind and target count are the new tasks'; a
// probe no longer planned and never run is forgotten, one that ran keeps its counts.
func (s *runStats) setTasks(tasks []schedule.Task) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.probes {
		p.Targets = 0
	}
	for _, t := range tasks {
		p := s.probes[t.ProbeID]
		if p == nil {
			p = &ProbeHealth{Kind: t.Kind, Errors: map[string]uint64{}}
			s.probes[t.ProbeID] = p
		}
		p.Kind = t.Kind
		p.Targets++
	}
	for id, p := range s.probes {
		if p.Targets == 0 && p.Runs == 0 && p.NotStarted == 0 {
			delete(s.probes, id)
		}
	}
}

// record counts one result.
func (s *runStats) record(r schedule.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.probes[r.Job.ProbeID]
	if p == nil {
		p = &ProbeHealth{Kind: r.Kind, Errors: map[string]uint64{}}
		s.probes[r.Job.ProbeID] = p
	}
	p.Samples += uint64(len(r.Samples))
	if r.NotStarted {
		p.NotStarted++
		p.Errors["not_started"]++
		p.LastError = r.Reason
		return
	}
	p.Runs++
	ended := r.Ended
	p.LastRun = &ended
	for _, smp := range r.Samples {
		if _, e := smp.Run(); e != nil {
			p.Errors[string(e.Class)]++
			p.LastError = e.Message
			return
		}
	}
	if len(r.Samples) == 0 {
		p.Errors["no_samples"]++
		p.LastError = "the run produced no sample"
		return
	}
	p.LastSuccess = &ended
}

func (s *runStats) add(spooled, dead, lost int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spooled += uint64(spooled)
	s.deadLettered += uint64(dead)
	s.lost += uint64(lost)
}

// snapshot copies the per-probe figures.
func (s *runStats) snapshot() (map[string]ProbeHealth, SampleHealth) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]ProbeHealth, len(s.probes))
	for id, p := range s.probes {
		c := *p
		c.Errors = make(map[string]uint64, len(p.Errors))
		for k, v := range p.Errors {
			c.Errors[k] = v
		}
		out[id] = c
	}
	return out, SampleHealth{Spooled: s.spooled, DeadLettered: s.deadLettered, Lost: s.lost}
}
