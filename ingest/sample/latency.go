package sample

import "longhaul/ingest/contract"

// SchemaLatency names one-way latency samples.
const SchemaLatency = contract.SchemaRawLatency

// Latency is one run of a one-way latency test in one direction, src to dst
// (ingest/schemas/latency_sample.v1.schema.json): pScheduler's latency and latencybg tests.
type Latency struct {
	Envelope
	RunID             string    `json:"run_id"`
	Tool              string    `json:"tool"`
	DurationS         *float64  `json:"duration_s,omitempty"`
	PacketsSent       int64     `json:"packets_sent"`
	PacketsReceived   int64     `json:"packets_received"`
	PacketsLost       int64     `json:"packets_lost"`
	PacketsDuplicated *int64    `json:"packets_duplicated,omitempty"`
	PacketsReordered  *int64    `json:"packets_reordered,omitempty"`
	LossPercent       float64   `json:"loss_percent"`
	DelayMinMs        *float64  `json:"delay_min_ms"`
	DelayMedianMs     *float64  `json:"delay_median_ms"`
	DelayMeanMs       *float64  `json:"delay_mean_ms"`
	DelayP95Ms        *float64  `json:"delay_p95_ms"`
	DelayMaxMs        *float64  `json:"delay_max_ms"`
	JitterMs          *float64  `json:"jitter_ms,omitempty"`
	TTLMin            *int64    `json:"ttl_min,omitempty"`
	TTLMax            *int64    `json:"ttl_max,omitempty"`
	ClockErrorMs      *float64  `json:"clock_error_ms,omitempty"`
	Labels            Labels    `json:"labels,omitempty"`
	Error             *RunError `json:"error,omitempty"`
}

// SetLabels gives the sample its plan's labels.
func (l *Latency) SetLabels(lb Labels) { l.Labels = lb }

// NewLatency starts a latency sample with its envelope filled in.
func NewLatency(src, dst, probeID, runID string, ts int64) *Latency {
	return &Latency{
		Envelope: envelope(SchemaLatency, contract.VersionRawLatency, src, dst, probeID, ts),
		RunID:    runID,
	}
}

// Run is the sample's run id and its failure (Sample).
func (l *Latency) Run() (string, *RunError) { return l.RunID, l.Error }
