// Package sweep is the "sweep" probe kind: throughput over a grid of socket buffer sizes ×
// parallel streams towards one target, as SLAC's windows-vs-streams studies did, to find what
// a path can carry and what limits it (window or loss). Each cell is a throughput run of its
// own; meant to be run on demand.
package sweep

import (
	"context"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/host"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
	"longhaul/probes/throughput"
)

// Kind is the registry name.
const Kind = "sweep"

func init() {
	probe.Register(probe.Registration{Kind: Kind, New: Factory, SampleConfig: SampleConfig})
}

// Factory builds a sweep from its params.
var Factory = probe.Decoded(DecodeParams, func(p Params, exec probe.Exec) probe.Probe {
	return &Probe{
		Params:  p,
		NewCell: func(tp throughput.Params) probe.Probe { return throughput.New(tp, exec) },
		Snap:    host.NewSnapshotter(exec),
		Now:     time.Now,
		Sleep:   sleep,
	}
})

// Probe runs the cells of the grid one after the other.
type Probe struct {
	Params  Params
	NewCell func(throughput.Params) probe.Probe
	Snap    host.Snapshotter
	Now     func() time.Time
	Sleep   func(ctx context.Context, d time.Duration) error
}

// Tools are iperf3 for the cells and what the sweep's host snapshot runs.
func (pr *Probe) Tools() []probe.Tool {
	return append([]probe.Tool{{Name: throughput.Tool, Without: "every cell fails with tool_missing"}}, pr.Snap.Tools()...)
}

// Exclusive: every cell is a throughput run.
func (pr *Probe) Exclusive() bool { return true }

// Timeout covers every cell and gap.
func (pr *Probe) Timeout() time.Duration { return pr.Params.Timeout() }

// Run takes one host snapshot, then runs every cell in order (windows outer, streams inner).
// Cell c publishes under probe id "<probe id>/<c>" and run id "<run id>/<c>", c being like
// "w=64K,P=4". Cells the deadline leaves no time for still yield a summary, with a
// not_started error.
func (pr *Probe) Run(ctx context.Context, job probe.Job) []sample.Sample {
	var out []sample.Sample
	start := job.Start
	if start.IsZero() {
		start = pr.Now()
	}
	m := probekit.Meta{Src: job.Src, Dst: job.Dst, ProbeID: job.ProbeID, RunID: job.RunID, Target: job.Target}
	runID := job.RunID
	if h, err := pr.Snap.Take(ctx, m, start.UnixMilli(), &runID); err == nil {
		out = append(out, h)
	}
	for i, c := range pr.Params.cells() {
		cj := job
		cj.ProbeID = job.ProbeID + "/" + c.label
		cj.RunID = job.RunID + "/" + c.label
		cj.Start = start
		if i > 0 {
			if err := pr.Sleep(ctx, pr.Params.Gap.D()); err == nil {
				cj.Start = pr.Now()
			}
		}
		if ctx.Err() != nil {
			m := probekit.Meta{Src: cj.Src, Dst: cj.Dst, ProbeID: cj.ProbeID, RunID: cj.RunID, Target: cj.Target, Start: pr.Now()}
			out = append(out, throughput.FailedSummary(m, c.params.Requested(),
				&sample.RunError{Class: sample.ErrNotStarted, Message: "the sweep's deadline passed before this cell"}))
			continue
		}
		out = append(out, pr.NewCell(c.params).Run(ctx, cj)...)
	}
	return out
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
