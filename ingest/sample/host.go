package sample

import "longhaul/ingest/contract"

// SchemaHost names host TCP-tuning snapshots.
const SchemaHost = contract.SchemaRawHost

// Host is the sender's TCP tuning taken with a throughput run
// (ingest/schemas/host_snapshot.v1.schema.json).
type Host struct {
	Envelope
	RunID                      *string  `json:"run_id,omitempty"`
	TCPRmem                    [3]int64 `json:"tcp_rmem"`
	TCPWmem                    [3]int64 `json:"tcp_wmem"`
	RmemMax                    int64    `json:"rmem_max"`
	WmemMax                    int64    `json:"wmem_max"`
	WindowScaling              *bool    `json:"window_scaling,omitempty"`
	CongestionControl          string   `json:"congestion_control"`
	AvailableCongestionControl []string `json:"available_congestion_control,omitempty"`
	Interface                  *string  `json:"interface,omitempty"`
	MTU                        *int64   `json:"mtu,omitempty"`
}

// NewHost starts a host snapshot with its envelope filled in.
func NewHost(src, dst, probeID string, ts int64) *Host {
	return &Host{Envelope: envelope(SchemaHost, contract.VersionRawHost, src, dst, probeID, ts)}
}

// Run is the run id of the throughput run the snapshot was taken with ("" on the host kind's own
// schedule); a snapshot records no failure (Sample).
func (h *Host) Run() (string, *RunError) {
	if h.RunID == nil {
		return "", nil
	}
	return *h.RunID, nil
}
