// Package host is the "host" probe kind: a snapshot of the sender's TCP tuning (buffer sizes,
// window scaling, congestion control) and of the interface and MTU towards the target. The
// throughput probe takes one with every run; this kind exists for hosts that want snapshots on
// a schedule of their own.
package host

import (
	"context"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

// Kind is the registry name.
const Kind = "host"

func init() {
	probe.Register(probe.Registration{Kind: Kind, New: Factory, SampleConfig: SampleConfig})
}

// Factory builds a host probe from its params.
func Factory(node *yaml.Node, exec probe.Exec) (probe.Probe, error) {
	p := DefaultParams()
	if err := probekit.DecodeParams(node, &p); err != nil {
		return nil, err
	}
	s := NewSnapshotter(exec)
	s.Route = p.Route
	return &Probe{Snap: s}, nil
}

// Probe takes snapshots.
type Probe struct{ Snap Snapshotter }

// Run takes one snapshot. The host_snapshot schema has no error field, so a host whose
// sysctls cannot be read yields no sample (see README).
func (p *Probe) Run(ctx context.Context, job probe.Job) []sample.Sample {
	m := probekit.Meta{Src: job.Src, Dst: job.Dst, ProbeID: job.ProbeID, RunID: job.RunID, Target: job.Target}
	start := job.Start
	if start.IsZero() {
		start = time.Now()
	}
	h, err := p.Snap.Take(ctx, m, start.UnixMilli(), nil)
	if err != nil {
		return nil
	}
	return []sample.Sample{h}
}

// Tools is ip when the route is recorded.
func (p *Probe) Tools() []probe.Tool { return p.Snap.Tools() }

// Exclusive is false: reading sysctls disturbs nothing.
func (p *Probe) Exclusive() bool { return false }

// Timeout bounds the route lookup.
func (p *Probe) Timeout() time.Duration { return 10 * time.Second }
