// Package rtt is the "rtt" probe kind: iputils ping, published as one rtt sample per run
// (sent, received, duplicates, loss, min/avg/max/mdev RTT). It also imports ping text for
// `longhaul-probe parse`.
package rtt

import (
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
var Factory = probe.Decoded(DecodeParams, func(p Params, exec probe.Exec) probe.Probe { return New(p, exec) })

// Probe runs ping.
type Probe = probekit.OneTool[*sample.RTT]

// Tool is the program an rtt run executes, looked up on PATH.
const Tool = "ping"

// New is an rtt probe: it pings the job's target and returns one rtt sample. Ping exits 1 when
// replies are missing, which is a measurement, not a failure; a run cut short is one.
func New(p Params, exec probe.Exec) *Probe {
	q := Requested{IntervalS: p.Interval.D().Seconds(), PacketSize: p.Size}
	return &Probe{
		Tool: Tool, Exec: exec, Now: time.Now, Limit: p.RunTimeout(),
		Argv:   func(target string) ([]string, error) { return Argv(p, target) },
		Parse:  func(out []byte, m probekit.Meta) ([]sample.Sample, error) { return ParsePing(out, m, q) },
		Failed: func(m probekit.Meta, e *sample.RunError) *sample.RTT { return failed(m, q, e) },
		Finish: func(run probekit.ToolRun, s *sample.RTT) {
			if s.Error == nil && run.Interrupted() {
				s.Error = run.Failure()
			}
		},
	}
}

// failed is the sample of a run that measured nothing: sent 0 and, as the schema needs a
// number, loss 100.
func failed(m probekit.Meta, q Requested, e *sample.RunError) *sample.RTT {
	r := sample.NewRTT(m.Src, m.Dst, m.ProbeID, m.RunID, m.Start.UnixMilli())
	r.Tool = Tool
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
