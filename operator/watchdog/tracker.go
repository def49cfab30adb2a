package watchdog

import (
	"sort"
	"time"
)

// The states of a component in the status file.
const (
	StateHealthy  = "healthy"
	StatePending  = "pending"  // bad, within the grace: nothing raised yet
	StateDegraded = "degraded" // pipeline_degraded raised, its recovery not yet
)

// Tracker turns each cycle's findings into events: pipeline_degraded once a component (and
// subject) has been bad for Grace, pipeline_recovered when it is healthy again, the two sharing
// an episode id. A component that turns good within the grace raises nothing. One that a cycle
// does not report (its check could not look), or reports healthy only tentatively, keeps its state.
type Tracker struct {
	Grace time.Duration
	// Instance names this watchdog in its events (evidence.watchdog) and episode ids: the job it
	// watches. Two watchdogs of different jobs never take up each other's episodes.
	Instance string
	states   map[string]*tracked
}

type tracked struct {
	last    Finding
	bad     bool
	since   time.Time // of the current state: when it turned bad, or good
	alerted bool      // pipeline_degraded was raised for this bad spell
	episode string
	seen    time.Time // last cycle that reported it
}

// NewTracker is a tracker with nothing known yet.
func NewTracker(grace time.Duration) *Tracker {
	return &Tracker{Grace: grace, states: map[string]*tracked{}}
}

// Observe applies one cycle's findings and returns the events they raise, in order.
func (t *Tracker) Observe(now time.Time, findings []Finding) []Event {
	var out []Event
	for _, f := range findings {
		if f.Subject == "" {
			f.Subject = AnySubject
		}
		s := t.states[f.Key()]
		if s == nil {
			s = &tracked{since: now}
			t.states[f.Key()] = s
		}
		if f.Healthy && f.Tentative && s.bad {
			s.seen = now // not enough seen yet to say the bad spell ended: it goes on
			continue
		}
		s.last, s.seen = f, now
		switch {
		case !f.Healthy && !s.bad:
			s.bad, s.since = true, now
			fallthrough
		case !f.Healthy:
			if !s.alerted && now.Sub(s.since) >= t.Grace {
				s.alerted, s.episode = true, EpisodeID(t.Instance, f.Component, f.Subject, s.since)
				out = append(out, t.sign(degraded(f, s.since, now, s.episode)))
			}
		case s.bad:
			if s.alerted {
				out = append(out, t.sign(recovered(f, s.since, now, s.episode)))
			}
			s.bad, s.alerted, s.episode, s.since = false, false, "", now
		}
	}
	return out
}

// sign names the instance in the event's evidence.
func (t *Tracker) sign(e Event) Event {
	if t.Instance != "" {
		e.Evidence[EvidenceInstance] = t.Instance
	}
	return e
}

// Episode is an alert still open: what Restore rebuilds from the events topic.
type Episode struct {
	Component, Subject string
	ID                 string
	Since              time.Time
	Severity, Message  string
	Evidence           map[string]any
}

// Restore makes open episodes (read back from the events topic) degraded and alerted: the next
// bad finding raises nothing again, the next healthy one raises their recovery.
func (t *Tracker) Restore(open []Episode) {
	for _, e := range open {
		f := Finding{Component: e.Component, Subject: e.Subject, Severity: e.Severity, Message: e.Message, Evidence: e.Evidence}
		t.states[f.Key()] = &tracked{last: f, bad: true, since: e.Since, alerted: true, episode: e.ID}
	}
}

// ComponentState is one component's state for the status file.
type ComponentState struct {
	Component string         `json:"component"`
	Subject   string         `json:"subject"`
	State     string         `json:"state"`
	Since     int64          `json:"since_ms"`
	Episode   string         `json:"episode_id,omitempty"`
	Severity  string         `json:"severity,omitempty"`
	Message   string         `json:"message,omitempty"`
	Evidence  map[string]any `json:"evidence,omitempty"`
	Checked   int64          `json:"checked_ms,omitempty"` // 0: not checked since the watchdog started (restored)
}

// States lists every component the tracker knows, the degraded first, then by component and subject.
func (t *Tracker) States() []ComponentState {
	out := make([]ComponentState, 0, len(t.states))
	for _, s := range t.states {
		st := StateHealthy
		if s.bad {
			st = StatePending
			if s.alerted {
				st = StateDegraded
			}
		}
		cs := ComponentState{Component: s.last.Component, Subject: s.last.Subject, State: st, Since: ms(s.since),
			Episode: s.episode, Message: s.last.Message, Evidence: evidence(s.last), Checked: ms(s.seen)}
		if s.bad {
			cs.Severity = s.last.Severity
			if cs.Severity == "" {
				cs.Severity = SeverityWarning
			}
		}
		out = append(out, cs)
	}
	rank := map[string]int{StateDegraded: 0, StatePending: 1, StateHealthy: 2}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if rank[a.State] != rank[b.State] {
			return rank[a.State] < rank[b.State]
		}
		if a.Component != b.Component {
			return a.Component < b.Component
		}
		return a.Subject < b.Subject
	})
	return out
}
