package agent

import (
	"encoding/json"
	"net/http"
	"time"

	"longhaul/internal/kafkaconn"
	"longhaul/perfsonar/psconfig"
)

// Health is the agent's state, served as JSON on GET /health.
type Health struct {
	// "ok"; "degraded" while Kafka is unreachable; "refused" while Kafka refuses the agent's
	// credential or rights (kafka.reason says what to fix). Samples are spooled in all three.
	Status  string                 `json:"status"`
	Src     string                 `json:"src"`
	Version string                 `json:"version"`
	Started time.Time              `json:"started"`
	UptimeS float64                `json:"uptime_s"`
	Kafka   KafkaHealth            `json:"kafka"`
	Spool   SpoolHealth            `json:"spool"`
	Samples SampleHealth           `json:"samples"`
	Probes  map[string]ProbeHealth `json:"probes"`
	// PSConfig is the pSConfig template's state and plan; absent without psconfig.url. A
	// source that fails or a document that is invalid makes the status "degraded" (the last
	// good plan still runs).
	PSConfig *PSConfigHealth `json:"psconfig,omitempty"`
	// PSBridge is the pScheduler bridge's counters; absent without pscheduler_bridge.
	PSBridge *PSBridgeHealth `json:"pscheduler_bridge,omitempty"`
	// ProbeRequests counts the job's requests for extra runs; absent with probe_requests off.
	ProbeRequests *RequestsHealth `json:"probe_requests,omitempty"`
}

// The states of the agent's Kafka connection.
const (
	KafkaConnected   = "connected"   // the last ping or send went through
	KafkaUnreachable = "unreachable" // an outage: retried, samples wait in the spool
	KafkaRefused     = "refused"     // a credential, certificate or ACL to fix: re-checked on a backoff
)

// KafkaHealth is the publisher's side.
type KafkaHealth struct {
	State string `json:"state"` // KafkaConnected, KafkaUnreachable or KafkaRefused
	// Reason is why Kafka refuses the agent, in one line: what to fix.
	Reason        string     `json:"reason,omitempty"`
	RefusedSince  *time.Time `json:"refused_since,omitempty"`
	NextCheck     *time.Time `json:"next_check,omitempty"` // the next re-check of the credential
	Rechecks      uint64     `json:"rechecks,omitempty"`   // re-checks since refused_since
	Security      string     `json:"security"`             // sasl_ssl, ssl or plaintext
	User          string     `json:"user,omitempty"`       // the SCRAM user (never the password)
	Connected     bool       `json:"connected"`
	LastAck       *time.Time `json:"last_ack,omitempty"`
	LastError     string     `json:"last_error,omitempty"`
	LastErrorAt   *time.Time `json:"last_error_at,omitempty"`
	Sent          uint64     `json:"sent"`
	Acked         uint64     `json:"acked"`
	Failed        uint64     `json:"failed"`
	Undeliverable uint64     `json:"undeliverable"`
	InFlight      int        `json:"in_flight"`
}

// SpoolHealth is the on-disk queue.
type SpoolHealth struct {
	DepthSamples    int    `json:"depth_samples"` // not yet acknowledged by Kafka
	DepthBytes      int64  `json:"depth_bytes"`   // their size
	DiskBytes       int64  `json:"disk_bytes"`    // the spool's files (what max_bytes bounds)
	MaxBytes        int64  `json:"max_bytes"`
	Segments        int    `json:"segments"`
	DroppedInterval uint64 `json:"dropped_interval"`
	DroppedOther    uint64 `json:"dropped_other"`
	DroppedTotal    uint64 `json:"dropped_total"`
	CorruptSkipped  uint64 `json:"corrupt_skipped"`
}

// SampleHealth counts samples on their way into the spool.
type SampleHealth struct {
	Spooled      uint64 `json:"spooled"`
	DeadLettered uint64 `json:"dead_lettered"`
	Lost         uint64 `json:"lost"` // could not be written to the spool at all
}

// Health takes a snapshot of the agent's state.
func (a *Agent) Health() Health {
	ps := a.pub.Stats()
	ss := a.spool.Stats()
	probes, samples := a.stats.snapshot()
	h := Health{
		Status: "ok", Src: a.cfg.Src, Version: a.opt.Version, Started: a.started,
		UptimeS: time.Since(a.started).Seconds(),
		Kafka: KafkaHealth{Connected: ps.Connected, LastError: ps.LastError, Sent: ps.Sent, Acked: ps.Acked,
			Failed: ps.Failed, Undeliverable: ps.Undeliverable, InFlight: ps.Outstanding},
		Spool: SpoolHealth{DepthSamples: ss.Samples, DepthBytes: ss.SampleBytes, DiskBytes: ss.Bytes, MaxBytes: int64(a.cfg.Spool.MaxBytes),
			Segments: ss.Segments, DroppedInterval: ss.DroppedInterval, DroppedOther: ss.DroppedOther,
			DroppedTotal: ss.Dropped(), CorruptSkipped: ss.Corrupt},
		Samples: samples,
		Probes:  probes,
	}
	if !ps.LastAck.IsZero() {
		h.Kafka.LastAck = &ps.LastAck
	}
	if !ps.LastErrorAt.IsZero() {
		h.Kafka.LastErrorAt = &ps.LastErrorAt
	}
	h.Kafka.Security = a.cfg.Kafka.Security
	if h.Kafka.Security == kafkaconn.SASLSSL {
		h.Kafka.User = a.cfg.Kafka.SASL.User
	}
	switch {
	case ps.Refused:
		h.Status, h.Kafka.State, h.Kafka.Reason = "refused", KafkaRefused, ps.Reason
		h.Kafka.RefusedSince, h.Kafka.NextCheck, h.Kafka.Rechecks = &ps.RefusedSince, &ps.NextCheck, ps.Rechecks
	case !ps.Connected:
		h.Status, h.Kafka.State = "degraded", KafkaUnreachable
	default:
		h.Kafka.State = KafkaConnected
	}
	if a.plan != nil {
		h.PSConfig = a.plan.health()
		if h.PSConfig.State != psconfig.StateOK && h.Status == "ok" {
			h.Status = "degraded"
		}
	}
	if a.psb != nil {
		h.PSBridge = a.psb.health()
	}
	if a.req != nil {
		h.ProbeRequests = a.req.health(a.opt.Clock.Now())
		if h.ProbeRequests.Refused != "" && h.Status == "ok" {
			h.Status = "degraded"
		}
	}
	return h
}

// Handler serves GET /health (JSON) and GET /metrics (Prometheus text format).
func (a *Agent) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(a.Health())
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		writeMetrics(w, a.Health())
	})
	return mux
}

// logHealth writes the periodic health line.
func (a *Agent) logHealth() {
	h := a.Health()
	failing := h.failingProbes()
	a.log.Info("health", "status", h.Status, "kafka", h.Kafka.State, "kafka_connected", h.Kafka.Connected,
		"spool_samples", h.Spool.DepthSamples, "spool_bytes", h.Spool.DepthBytes,
		"dropped", h.Spool.DroppedTotal, "acked", h.Kafka.Acked, "spooled", h.Samples.Spooled,
		"probes", len(h.Probes), "probes_failing", failing, "lost", h.Samples.Lost)
	if p := h.PSConfig; p != nil {
		a.log.Info("health psconfig", "state", p.State, "planned", p.Planned, "running", p.Running,
			"unsupported", p.Unsupported, "last_error", p.LastError)
	}
	if b := h.PSBridge; b != nil {
		a.log.Info("health pscheduler_bridge", "accepted", b.Accepted, "duplicates", b.Duplicates,
			"dead_lettered", b.DeadLettered, "unauthorized", b.Unauthorized, "last_error", b.LastError)
	}
	if r := h.ProbeRequests; r != nil {
		a.log.Info("health probe_requests", "last_hour", r.LastHour, "max_per_hour", r.MaxPerHour,
			"queued", r.Outcomes[RequestQueued], "expired", r.Outcomes[RequestExpired],
			"over_budget", r.Outcomes[RequestOverBudget], "no_probe", r.Outcomes[RequestNoProbe], "last_error", r.LastError)
	}
}

// failingProbes counts the probes whose last run failed.
func (h Health) failingProbes() int {
	n := 0
	for _, p := range h.Probes {
		if p.LastError != "" && (p.LastSuccess == nil || (p.LastRun != nil && p.LastRun.After(*p.LastSuccess))) {
			n++
		}
	}
	return n
}
