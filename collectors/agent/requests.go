package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"longhaul/collectors/schedule"
	"longhaul/ingest/contract"
	"longhaul/ingest/schema"
)

// probeRequest is what the agent reads of a probe_request message.
type probeRequest struct {
	Schema    string `json:"schema"`
	Version   int    `json:"version"`
	Src       string `json:"src"`
	Dst       string `json:"dst"`
	ProbeID   string `json:"probe_id"`
	RequestID string `json:"request_id"`
	Reason    string `json:"reason"`
	ExpiresTS int64  `json:"expires_ts"`
}

// What became of a probe request.
const (
	RequestQueued     = "queued"      // the run waits for its turn (or runs)
	RequestOtherHost  = "other_host"  // for another agent: the topic is shared
	RequestExpired    = "expired"     // read after expires_ts: a late run confirms nothing
	RequestOverBudget = "over_budget" // this host started max_per_hour extra runs in the last hour
	RequestNoProbe    = "no_probe"    // this host runs no such probe towards that target
	RequestDuplicate  = "duplicate"   // a request id already taken (two jobs asking alike)
	RequestInvalid    = "invalid"     // not a probe_request
)

// requests keeps the host's own budget and counts what became of the requests it read.
type requests struct {
	mu         sync.Mutex
	maxPerHour int
	group      string
	reg        *schema.Registry     // nil: not validated
	started    []time.Time          // extra runs queued in the last hour
	taken      map[string]time.Time // request ids queued in the last hour
	counts     map[string]uint64
	lastError  string
	refused    string // Kafka refuses the topic or the group: what to fix ("" while it does not)
	assigned   bool   // the group gave this agent its partitions: requests from now on reach it
}

func newRequests(maxPerHour int, group string, reg *schema.Registry) *requests {
	return &requests{maxPerHour: maxPerHour, group: group, reg: reg, counts: map[string]uint64{}, taken: map[string]time.Time{}}
}

// RequestsHealth is the probe-requests part of /health.
type RequestsHealth struct {
	Group      string            `json:"group"`
	Assigned   bool              `json:"assigned"` // reading the topic: requests from now on reach it
	MaxPerHour int               `json:"max_per_hour"`
	LastHour   int               `json:"last_hour"` // extra runs queued in the last hour
	Outcomes   map[string]uint64 `json:"outcomes"`  // every request read, by what became of it
	LastError  string            `json:"last_error,omitempty"`
	// Refused says why Kafka refuses this agent the requests' topic or group, and what to do; it
	// makes the agent's status "degraded" (its samples still go), until the group assigns it.
	Refused string `json:"refused,omitempty"`
}

func (q *requests) health(now time.Time) *RequestsHealth {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.forget(now)
	out := make(map[string]uint64, len(q.counts))
	for k, v := range q.counts {
		out[k] = v
	}
	return &RequestsHealth{Group: q.group, Assigned: q.assigned, MaxPerHour: q.maxPerHour, LastHour: len(q.started),
		Outcomes: out, LastError: q.lastError, Refused: q.refused}
}

func (q *requests) forget(now time.Time) {
	kept := q.started[:0]
	for _, t := range q.started {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	q.started = kept
	for id, t := range q.taken {
		if now.Sub(t) >= time.Hour {
			delete(q.taken, id)
		}
	}
}

func (q *requests) setAssigned(on bool) {
	q.mu.Lock()
	q.assigned = on
	if on {
		q.lastError, q.refused = "", ""
	}
	q.mu.Unlock()
}

func (q *requests) fail(err error) {
	q.mu.Lock()
	q.lastError = err.Error()
	if errors.Is(err, kerr.TopicAuthorizationFailed) || errors.Is(err, kerr.GroupAuthorizationFailed) {
		q.refused = fmt.Sprintf("Kafka refuses this agent's user the probe requests (%s, group %s): %v; "+
			"grant it as `longhaul admin add-agent` does, or set probe_requests.enabled: false", contract.TopicProbeRequests, q.group, err)
	}
	q.mu.Unlock()
}

// take decides on one probe request read from Kafka, queues its run on the scheduler when it is
// this host's, in time and within budget, and says what became of it (and why, when not queued).
func (q *requests) take(raw []byte, src string, now time.Time, sched *schedule.Scheduler) (string, string) {
	outcome, why := q.decide(raw, src, now, sched)
	q.mu.Lock()
	q.counts[outcome]++
	q.mu.Unlock()
	return outcome, why
}

func (q *requests) decide(raw []byte, src string, now time.Time, sched *schedule.Scheduler) (string, string) {
	var r probeRequest
	if err := json.Unmarshal(raw, &r); err != nil {
		return RequestInvalid, "not JSON: " + err.Error()
	}
	if q.reg != nil {
		// the job writes the contract's version; an agent reads that one and every earlier one
		if r.Schema != contract.SchemaProbeRequests || r.Version < 1 || r.Version > contract.VersionProbeRequests {
			return RequestInvalid, fmt.Sprintf("not a %s of version 1 to %d", contract.SchemaProbeRequests, contract.VersionProbeRequests)
		}
		if err := q.reg.ValidateAs(fmt.Sprintf("%s.v%d", r.Schema, r.Version), raw); err != nil {
			return RequestInvalid, err.Error()
		}
	} else if r.Schema != contract.SchemaProbeRequests || r.RequestID == "" || r.ProbeID == "" {
		return RequestInvalid, "not a probe_request"
	}
	if r.Src != src {
		return RequestOtherHost, ""
	}
	deadline := time.UnixMilli(r.ExpiresTS)
	if !now.Before(deadline) {
		return RequestExpired, fmt.Sprintf("expired %s ago", now.Sub(deadline).Round(time.Second))
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.forget(now)
	if _, dup := q.taken[r.RequestID]; dup {
		return RequestDuplicate, r.RequestID
	}
	if len(q.started) >= q.maxPerHour {
		return RequestOverBudget, fmt.Sprintf("%d extra runs in the last hour (probe_requests.max_per_hour)", len(q.started))
	}
	err := sched.Request(schedule.Extra{ProbeID: r.ProbeID, Dst: r.Dst, RequestID: r.RequestID, Deadline: deadline})
	var noTask schedule.ErrNoTask
	if errors.As(err, &noTask) {
		return RequestNoProbe, err.Error()
	}
	q.started = append(q.started, now)
	q.taken[r.RequestID] = now
	return RequestQueued, r.Reason
}
