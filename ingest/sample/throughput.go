package sample

import "longhaul/ingest/contract"

// SchemaThroughput names throughput samples.
const SchemaThroughput = contract.SchemaRawThroughput

// Record kinds of a throughput sample.
const (
	RecordInterval = "interval"
	RecordSummary  = "summary"
)

// Throughput is one iperf3/iperf2/pScheduler record: a per-interval row or a run's summary
// (ingest/schemas/throughput_sample.v2.schema.json).
type Throughput struct {
	Envelope
	RunID       string   `json:"run_id"`
	Record      string   `json:"record"`
	Tool        string   `json:"tool"`
	ToolVersion *string  `json:"tool_version,omitempty"`
	Target      *string  `json:"target,omitempty"`
	Port        *int64   `json:"port,omitempty"`
	Protocol    string   `json:"protocol"`
	Direction   string   `json:"direction,omitempty"`
	Streams     *int64   `json:"streams,omitempty"`
	WindowBytes *int64   `json:"window_bytes,omitempty"`
	Congestion  *string  `json:"congestion,omitempty"`
	DurationS   *float64 `json:"duration_s,omitempty"`
	StartS      *float64 `json:"start_s,omitempty"`
	EndS        *float64 `json:"end_s,omitempty"`
	Omitted     *bool    `json:"omitted,omitempty"`

	Bytes                 *int64   `json:"bytes,omitempty"`
	BitsPerSecond         *float64 `json:"bits_per_second,omitempty"`
	SentBytes             *int64   `json:"sent_bytes,omitempty"`
	SentBitsPerSecond     *float64 `json:"sent_bits_per_second,omitempty"`
	ReceivedBytes         *int64   `json:"received_bytes,omitempty"`
	ReceivedBitsPerSecond *float64 `json:"received_bits_per_second,omitempty"`
	Retransmits           *int64   `json:"retransmits,omitempty"`
	SndCwndBytes          *int64   `json:"snd_cwnd_bytes,omitempty"`
	RTTMs                 *float64 `json:"rtt_ms,omitempty"`
	RTTVarMs              *float64 `json:"rttvar_ms,omitempty"`
	MinRTTMs              *float64 `json:"min_rtt_ms,omitempty"`
	MaxRTTMs              *float64 `json:"max_rtt_ms,omitempty"`
	JitterMs              *float64 `json:"jitter_ms,omitempty"`
	LostPackets           *int64   `json:"lost_packets,omitempty"`
	Packets               *int64   `json:"packets,omitempty"`
	LossPercent           *float64 `json:"loss_percent,omitempty"`
	OutOfOrder            *int64   `json:"out_of_order,omitempty"`
	SndWndBytes           *int64   `json:"snd_wnd_bytes,omitempty"`

	Labels    Labels  `json:"labels,omitempty"`
	Screens   *string `json:"screens,omitempty"`
	RequestID *string `json:"request_id,omitempty"`

	Error *RunError `json:"error,omitempty"`
}

// SetLabels gives the sample its plan's labels.
func (t *Throughput) SetLabels(l Labels) { t.Labels = l }

// SetRequest marks the sample as of a run started for the probe request id.
func (t *Throughput) SetRequest(id string) { t.RequestID = &id }

// SetScreens marks the sample as of a screening burst for the throughput probe probeID.
func (t *Throughput) SetScreens(probeID string) { t.Screens = &probeID }

// NewThroughput starts a throughput record of the given kind with its envelope filled in.
func NewThroughput(src, dst, probeID, runID, record string, ts int64) *Throughput {
	return &Throughput{
		Envelope: envelope(SchemaThroughput, contract.VersionRawThroughput, src, dst, probeID, ts),
		RunID:    runID,
		Record:   record,
	}
}

// Run is the sample's run id and its failure (Sample).
func (t *Throughput) Run() (string, *RunError) { return t.RunID, t.Error }
