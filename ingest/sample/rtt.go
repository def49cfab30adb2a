package sample

import "longhaul/ingest/contract"

// SchemaRTT names RTT/loss samples.
const SchemaRTT = contract.SchemaRawRTT

// RTT is one ping run (ingest/schemas/rtt_sample.v2.schema.json).
type RTT struct {
	Envelope
	RunID       string    `json:"run_id"`
	Tool        string    `json:"tool"`
	Target      *string   `json:"target,omitempty"`
	PacketSize  *int64    `json:"packet_size,omitempty"`
	IntervalS   *float64  `json:"interval_s,omitempty"`
	Sent        int64     `json:"sent"`
	Received    int64     `json:"received"`
	Duplicates  *int64    `json:"duplicates,omitempty"`
	LossPercent float64   `json:"loss_percent"`
	MinMs       *float64  `json:"rtt_min_ms"`
	AvgMs       *float64  `json:"rtt_avg_ms"`
	MaxMs       *float64  `json:"rtt_max_ms"`
	MdevMs      *float64  `json:"rtt_mdev_ms"`
	Labels      Labels    `json:"labels,omitempty"`
	Error       *RunError `json:"error,omitempty"`
}

// SetLabels gives the sample its plan's labels.
func (r *RTT) SetLabels(l Labels) { r.Labels = l }

// NewRTT starts an RTT sample with its envelope filled in.
func NewRTT(src, dst, probeID, runID string, ts int64) *RTT {
	return &RTT{
		Envelope: envelope(SchemaRTT, contract.VersionRawRTT, src, dst, probeID, ts),
		RunID:    runID,
	}
}

// Run is the sample's run id and its failure (Sample).
func (r *RTT) Run() (string, *RunError) { return r.RunID, r.Error }
