package throughput

import (
	"math"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// Requested is what the probe asked the tool for. Parsers fall back on it only where the
// output is silent, as a failed iperf3 run that printed no test_start.
type Requested struct {
	Protocol   string // tcp (the default) or udp
	Streams    int
	Window     int64 // bytes, 0 = the OS default
	Congestion string
	Reverse    bool
	Port       int
}

// runInfo is what every record of one run repeats, so each record stands alone downstream.
type runInfo struct {
	meta        probekit.Meta
	tool        string
	toolVersion *string
	target      *string
	port        *int64
	protocol    string
	direction   string
	streams     *int64
	window      *int64
	congestion  *string
}

// record starts a record of the run.
func (r *runInfo) record(kind string, ts int64) *sample.Throughput {
	t := sample.NewThroughput(r.meta.Src, r.meta.Dst, r.meta.ProbeID, r.meta.RunID, kind, ts)
	t.Tool = r.tool
	t.ToolVersion = r.toolVersion
	t.Target = r.target
	t.Port = r.port
	t.Protocol = r.protocol
	t.Direction = r.direction
	t.Streams = r.streams
	t.WindowBytes = r.window
	t.Congestion = r.congestion
	return t
}

// fromRequested fills what the output did not say.
func (r *runInfo) fromRequested(q Requested) {
	if r.protocol == "" {
		r.protocol = q.Protocol
		if r.protocol == "" {
			r.protocol = "tcp"
		}
	}
	if r.direction == "" {
		r.direction = "forward"
		if q.Reverse {
			r.direction = "reverse"
		}
	}
	if r.streams == nil && q.Streams > 0 {
		r.streams = sample.I64(int64(q.Streams))
	}
	if r.window == nil && q.Window > 0 {
		r.window = sample.I64(q.Window)
	}
	if r.congestion == nil && q.Congestion != "" && r.protocol == "tcp" {
		r.congestion = sample.Str(q.Congestion)
	}
	if r.port == nil && q.Port > 0 && q.Port <= 65535 {
		r.port = sample.I64(int64(q.Port))
	}
	if r.target == nil && r.meta.Target != "" {
		r.target = sample.Str(r.meta.Target)
	}
}

// finite reports a usable non-negative number.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 }

// pct keeps a loss percentage the schemas accept; iperf3 is known to report negative losses
// when packets arrive out of order, which are dropped rather than clamped.
func pct(v *float64) *float64 {
	if v == nil || !finite(*v) || *v > 100 {
		return nil
	}
	return sample.F64(*v)
}

// count keeps a non-negative count.
func count(v *int64) *int64 {
	if v == nil || *v < 0 {
		return nil
	}
	return sample.I64(*v)
}
