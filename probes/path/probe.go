// Package path is the "path" probe kind: Linux traceroute with a fixed flow, published as one
// path sample per run (every hop, every answer, `*`, ICMP annotations, whether the destination
// answered). It also imports traceroute text and pScheduler trace results for
// `longhaul-probe parse`.
package path

import (
	"context"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

// Kind is the registry name.
const Kind = "path"

func init() {
	probe.Register(probe.Registration{Kind: Kind, New: Factory, SampleConfig: SampleConfig})
}

// Factory builds a path probe from its params.
var Factory = probe.Decoded(DecodeParams, func(p Params, exec probe.Exec) probe.Probe {
	return &Probe{Params: p, Exec: exec, Now: time.Now}
})

// Probe runs traceroute.
type Probe struct {
	Params Params
	Exec   probe.Exec
	Now    func() time.Time
}

// Tool is the program a path run executes, looked up on PATH.
const Tool = "traceroute"

// Tools is traceroute.
func (pr *Probe) Tools() []probe.Tool { return []probe.Tool{{Name: Tool, Without: probe.WithoutIt}} }

// Exclusive is false: a traceroute is a trickle of packets.
func (pr *Probe) Exclusive() bool { return false }

// Timeout is the worst case of a run.
func (pr *Probe) Timeout() time.Duration { return pr.Params.Timeout() }

// Run traces the path to the job's target; it always returns one path sample, carrying the
// error when traceroute could not run.
func (pr *Probe) Run(ctx context.Context, job probe.Job) []sample.Sample {
	m := probekit.JobMeta(job, pr.Now)
	argv, err := Argv(pr.Params, job.Target)
	if err != nil {
		return []sample.Sample{failed(m, &sample.RunError{Class: sample.ErrNotStarted, Message: err.Error()})}
	}
	run := probekit.RunTool(ctx, pr.Exec, Tool, argv)
	ss, e := run.Parse(func(out []byte) ([]sample.Sample, error) {
		return ParseTraceroute(out, m, Requested{Queries: pr.Params.Queries, MaxTTL: pr.Params.MaxTTL})
	})
	if e != nil {
		return []sample.Sample{failed(m, e)}
	}
	if p := ss[0].(*sample.Path); p.Error == nil && run.Err != nil {
		p.Error = run.Failure()
	}
	return ss
}

// failed is the path sample of a run that traced nothing.
func failed(m probekit.Meta, e *sample.RunError) *sample.Path {
	p := sample.NewPath(m.Src, m.Dst, m.ProbeID, m.RunID, m.Start.UnixMilli())
	p.Tool = "traceroute"
	if m.Target != "" {
		t := m.Target
		p.Target = &t
	}
	p.Error = e
	return p
}
