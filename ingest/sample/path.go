package sample

import "longhaul/ingest/contract"

// SchemaPath names path samples.
const SchemaPath = contract.SchemaRawPath

// Path is one traceroute run (ingest/schemas/path_sample.v2.schema.json).
type Path struct {
	Envelope
	RunID   string    `json:"run_id"`
	Tool    string    `json:"tool"`
	Target  *string   `json:"target,omitempty"`
	DstAddr *string   `json:"dst_addr,omitempty"`
	MaxTTL  *int64    `json:"max_ttl,omitempty"`
	Queries *int64    `json:"queries,omitempty"`
	Reached bool      `json:"reached"`
	Hops    []Hop     `json:"hops"`
	Labels  Labels    `json:"labels,omitempty"`
	Error   *RunError `json:"error,omitempty"`
}

// Hop is one TTL of a path with the answer to every query sent with it.
type Hop struct {
	TTL    int        `json:"ttl"`
	Probes []HopProbe `json:"probes"`
}

// HopProbe is one query's answer; Addr and RTTMs are nil for `*`.
type HopProbe struct {
	Addr       *string  `json:"addr"`
	Name       *string  `json:"name,omitempty"`
	RTTMs      *float64 `json:"rtt_ms"`
	Annotation *string  `json:"annotation,omitempty"`
	ASN        *int64   `json:"asn,omitempty"`
}

// SetLabels gives the sample its plan's labels.
func (p *Path) SetLabels(l Labels) { p.Labels = l }

// NewPath starts a path sample with its envelope filled in.
func NewPath(src, dst, probeID, runID string, ts int64) *Path {
	return &Path{
		Envelope: envelope(SchemaPath, contract.VersionRawPath, src, dst, probeID, ts),
		RunID:    runID,
		Hops:     []Hop{},
	}
}

// Run is the sample's run id and its failure (Sample).
func (p *Path) Run() (string, *RunError) { return p.RunID, p.Error }
