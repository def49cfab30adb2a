// Package rtt is the "rtt" probe kind: iputils ping, published as one rtt sample per run
// (sent, received, duplicates, loss, min/avg/max/mdev RTT). It also imports ping text for
// `longhaul-probe parse`.
package rtt

import (
	"context"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

// Kind is the registry name.
const Kind = "rtt"

func init() {
	probe.Register(probe.Registration{Kind: Kind, New: Factory, SampleConfig: SampleConfig})
}

// Factory builds an rtt probe from its params.
var Factory = probe.Decoded(DecodeParams, func(p Params, exec probe.Exec) probe.Probe {
	return &Probe{Params: p, Exec: exec, Now: time.Now}
})

// Probe runs ping.
type Probe struct {
	Params Params
	Exec   probe.Exec
	Now    func() time.Time
}

// Tool is the program an rtt run executes, looked up on PATH.
const Tool = "ping"

// Tools is ping.
func (pr *Probe) Tools() []probe.Tool { return []probe.Tool{{Name: Tool, Without: probe.WithoutIt}} }

// Exclusive is false.
func (pr *Probe) Exclusive() bool { return false }

// Timeout is the run's length plus slack.
func (pr *Probe) Timeout() time.Duration { return pr.Params.RunTimeout() }

// Run pings the job's target and returns one rtt sample; ping exits 1 when replies are
// missing, which is a measurement, not a failure.
func (pr *Probe) Run(ctx context.Context, job probe.Job) []sample.Sample {
	m := probekit.JobMeta(job, pr.Now)
	q := Requested{IntervalS: pr.Params.Interval.D().Seconds(), PacketSize: pr.Params.Size}
	argv, err := Argv(pr.Params, job.Target)
	if err != nil {
		return []sample.Sample{failed(m, q, &sample.RunError{Class: sample.ErrNotStarted, Message: err.Error()})}
	}
	run := probekit.RunTool(ctx, pr.Exec, Tool, argv)
	ss, e := run.Parse(func(out []byte) ([]sample.Sample, error) { return ParsePing(out, m, q) })
	if e != nil {
		return []sample.Sample{failed(m, q, e)}
	}
	if r := ss[0].(*sample.RTT); r.Error == nil && ctx.Err() != nil {
		r.Error = run.Failure()
	}
	return ss
}

// failed is the sample of a run that measured nothing: sent 0 and, as the schema needs a
// number, loss 100.
func failed(m probekit.Meta, q Requested, e *sample.RunError) *sample.RTT {
	r := sample.NewRTT(m.Src, m.Dst, m.ProbeID, m.RunID, m.Start.UnixMilli())
	r.Tool = "ping"
	if m.Target != "" {
		t := m.Target
		r.Target = &t
	}
	r.PacketSize = sample.I64(int64(q.PacketSize))
	r.IntervalS = sample.F64(q.IntervalS)
	r.LossPercent = 100
	r.Error = e
	return r
}
