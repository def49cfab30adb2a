// Package throughput is the "throughput" probe kind: an iperf3 client run against a target's
// iperf3 server, published as one interval record per second and one summary per run (plus a
// host_snapshot of the sender's TCP tuning). It also holds the importers of iperf2 text and of
// pScheduler throughput results used by `longhaul-probe parse`.
package throughput

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/host"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

// Kind is the registry name.
const Kind = probe.KindThroughput

func init() {
	probe.Register(probe.Registration{Kind: Kind, New: Factory, SampleConfig: SampleConfig})
}

// Factory builds a throughput probe from its params.
var Factory = probe.Decoded(DecodeParams, func(p Params, exec probe.Exec) probe.Probe { return New(p, exec) })

// Probe runs iperf3. Its fields are the seams tests replace.
type Probe struct {
	Params Params
	Exec   probe.Exec
	// Snap takes the host snapshot published with each run (Params.HostSnapshot).
	Snap host.Snapshotter
	// Lookup tells a failed name resolution from other failures: iperf3 reports it as
	// "Resource temporarily unavailable".
	Lookup func(ctx context.Context, host string) ([]string, error)
	Now    func() time.Time
}

// New builds a probe on the real host.
func New(p Params, exec probe.Exec) *Probe {
	return &Probe{Params: p, Exec: exec, Snap: host.NewSnapshotter(exec), Lookup: net.DefaultResolver.LookupHost, Now: time.Now}
}

// Tools are iperf3 and, with host snapshots, what the snapshot runs.
func (pr *Probe) Tools() []probe.Tool {
	tools := []probe.Tool{{Name: Tool, Without: probe.WithoutIt}}
	if pr.Params.HostSnapshot {
		tools = append(tools, pr.Snap.Tools()...)
	}
	return tools
}

// Exclusive: two throughput runs from one host, or on one target, measure each other.
func (pr *Probe) Exclusive() bool { return true }

// Demand is one run's: its length with the omitted seconds, its streams, and its bitrate over
// all streams when paced (iperf3's -b is per stream).
func (pr *Probe) Demand() probe.Demand {
	d := probe.Demand{Duration: pr.Params.Duration.D() + pr.Params.Omit.D(), Streams: pr.Params.Streams}
	if pr.Params.Bitrate != nil {
		d.BitsPerSecond = float64(*pr.Params.Bitrate) * float64(pr.Params.Streams)
	}
	return d
}

// Timeout is the test length plus omit, connect timeout and slack.
func (pr *Probe) Timeout() time.Duration { return pr.Params.Timeout() }

// Run runs one iperf3 test: the host snapshot first (the tuning the test runs with), then the
// test. It always returns a summary; a failed run's summary carries the error.
func (pr *Probe) Run(ctx context.Context, job probe.Job) []sample.Sample {
	m := probekit.JobMeta(job, pr.Now)
	var out []sample.Sample
	if pr.Params.HostSnapshot {
		runID := job.RunID
		if h, err := pr.Snap.Take(ctx, m, m.Start.UnixMilli(), &runID); err == nil {
			out = append(out, h)
		}
	}
	return append(out, pr.test(ctx, m)...)
}

func (pr *Probe) test(ctx context.Context, m probekit.Meta) []sample.Sample {
	q := pr.Params.Requested()
	argv, err := Argv(pr.Params, m.Target)
	if err != nil {
		return []sample.Sample{FailedSummary(m, q, &sample.RunError{Class: sample.ErrNotStarted, Message: err.Error()})}
	}
	stdout, stderr, runErr := pr.Exec(ctx, argv)
	overran := errors.Is(ctx.Err(), context.DeadlineExceeded)
	if overran || len(strings.TrimSpace(string(stdout))) == 0 {
		e := probekit.ExecFailure(ctx, "iperf3", runErr, stderr)
		if overran {
			e = overrun(stdout, e)
		}
		return []sample.Sample{pr.refine(ctx, m, FailedSummary(m, q, e))}
	}
	ss, err := ParseIperf3(stdout, m, q)
	if err != nil {
		msg := fmt.Sprintf("unparseable iperf3 output: %v", err)
		if e := strings.TrimSpace(string(stderr)); e != "" {
			msg += "; stderr: " + e
		}
		return []sample.Sample{FailedSummary(m, q, &sample.RunError{Class: sample.ErrToolFailed, Message: probekit.Message(msg)})}
	}
	sum := ss[len(ss)-1].(*sample.Throughput)
	if sum.Error == nil && runErr != nil {
		sum.Error = probekit.ExecFailure(ctx, "iperf3", runErr, stderr)
	}
	pr.refine(ctx, m, sum)
	return ss
}

// refine turns an unexplained failure towards a host name into a dns error when the name does
// not resolve: iperf3 reports a resolver failure with the errno it happens to hold.
func (pr *Probe) refine(ctx context.Context, m probekit.Meta, sum *sample.Throughput) *sample.Throughput {
	e := sum.Error
	if e == nil || e.Class != sample.ErrToolFailed || pr.Lookup == nil || net.ParseIP(m.Target) != nil {
		return sum
	}
	if _, err := pr.Lookup(ctx, m.Target); err != nil {
		e.Class = sample.ErrDNS
		e.Message = probekit.Message(fmt.Sprintf("%s (resolving %s: %v)", e.Message, m.Target, err))
	}
	return sum
}
