package throughput

import (
	"fmt"
	"math"
	"strings"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// psData is one row of a pScheduler throughput result ("throughput-data"; no field of it is
// required). For the iperf3 tool it is iperf3's row renamed: throughput-bytes is the bytes
// moved, rtt is iperf3's microseconds, tcp-window-size is the congestion window. Its integers
// are draft-7 integers (probekit.Int: 5.0 is one); stream-id, a name or a number, is not read.
type psData struct {
	Start         *float64      `json:"start"`
	End           *float64      `json:"end"`
	Bytes         *float64      `json:"throughput-bytes"`
	Bits          *float64      `json:"throughput-bits"`
	ReceiverBits  *float64      `json:"receiver-throughput-bits"`
	Sent          *probekit.Int `json:"sent"`
	Lost          *probekit.Int `json:"lost"`
	Jitter        *float64      `json:"jitter"`
	RTT           *float64      `json:"rtt"`
	TCPWindowSize *probekit.Int `json:"tcp-window-size"`
	Retransmits   *probekit.Int `json:"retransmits"`
	Omitted       *bool         `json:"omitted"`
}

type psGroup struct {
	Streams []psData `json:"streams"`
	Summary *psData  `json:"summary"`
}

// psResult is the fields of a throughput result that are read; the others pScheduler's schema
// allows (schema, diags, mss, mtu, tcp-window-size, requested-tcp-window-size) have no place in
// a sample and are ignored.
type psResult struct {
	Succeeded bool      `json:"succeeded"`
	Error     *string   `json:"error"`
	Intervals []psGroup `json:"intervals"`
	Summary   *psGroup  `json:"summary"`
}

type psSpec struct {
	UDP        bool    `json:"udp"`
	Parallel   int64   `json:"parallel"`
	WindowSize int64   `json:"window-size"`
	Congestion string  `json:"congestion"`
	Reverse    bool    `json:"reverse"`
	Omit       *string `json:"omit"`
}

// ParsePScheduler imports a pScheduler throughput result: an archive message (current or
// older, see psOpen) or a bare result (`pscheduler result --format json`, with --src, --dst
// and --ts). src and dst default to the test's source and dest (see probekit.Archive.Link),
// the run id to the message's id, ts to schedule.start. A run that did not succeed yields its
// summary with the error.
func ParsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	ss, err := parsePScheduler(input, m)
	return ss, boundErr(err)
}

func parsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	a, startMS, err := psOpen(input, &m)
	if err != nil {
		return nil, err
	}
	var spec psSpec
	if len(a.Test.Spec) > 0 {
		if err := probekit.DecodeAt("test.spec", a.Test.Spec, &spec); err != nil {
			return nil, err
		}
	}
	var res psResult
	if err := probekit.DecodeAt("result", a.Result, &res); err != nil {
		return nil, err
	}
	r := psRun(a, m, spec)
	omit := 0.0
	if spec.Omit != nil {
		if omit, err = probekit.ISODurationSeconds(*spec.Omit); err != nil {
			return nil, probekit.PathError("test.spec.omit", "%v", err)
		}
	}
	var ss []sample.Sample
	for i, g := range res.Intervals {
		if !psPlaced(g.Summary) {
			continue // pScheduler's iperf3 tool writes "summary": {} for an interval iperf3 gave no sum
		}
		rec, err := psInterval(r, g, i, startMS, omit)
		if err != nil {
			return nil, err
		}
		ss = append(ss, rec)
	}
	sum, err := psSummary(r, &res, startMS)
	if err != nil {
		return nil, err
	}
	return append(ss, sum), nil
}

func psRun(a *probekit.Archive, m probekit.Meta, spec psSpec) *runInfo {
	r := &runInfo{meta: m, tool: "pscheduler", protocol: "tcp", direction: "forward"}
	if a.Tool.Name != "" {
		v := a.Tool.Name
		if a.Tool.Version != "" {
			v += " " + a.Tool.Version
		}
		r.toolVersion = &v
	}
	if spec.UDP {
		r.protocol = "udp"
	}
	if spec.Reverse {
		r.direction = "reverse"
	}
	if spec.Parallel >= 1 {
		r.streams = sample.I64(spec.Parallel)
	}
	if spec.WindowSize > 0 {
		r.window = sample.I64(spec.WindowSize)
	}
	if spec.Congestion != "" && !spec.UDP {
		r.congestion = sample.Str(spec.Congestion)
	}
	r.fromRequested(Requested{})
	return r
}

func psRow(path string, d *psData) error {
	if d == nil {
		return probekit.PathError(path, "missing")
	}
	if err := psSpan(path, d.Start, d.End); err != nil {
		return err
	}
	for name, v := range map[string]*float64{"throughput-bits": d.Bits, "throughput-bytes": d.Bytes, "receiver-throughput-bits": d.ReceiverBits} {
		if v != nil && (!finite(*v) || *v > 1e18) {
			return probekit.PathError(path+"."+name, "%g is out of range", *v)
		}
	}
	if d.Bits == nil {
		return probekit.PathError(path+".throughput-bits", "missing")
	}
	return nil
}

// psHasRate reports whether a row gives a rate: the schema requires none of its fields.
func psHasRate(d *psData) bool { return d != nil && d.Bits != nil }

// psPlaced reports whether an interval's row gives a rate and its place in the run (start and
// end), without which an interval record cannot be written.
func psPlaced(d *psData) bool { return psHasRate(d) && d.Start != nil && d.End != nil }

// psSpan checks a row's start and end (seconds into the run), either of which may be absent.
func psSpan(path string, start, end *float64) error {
	for i, v := range []*float64{start, end} {
		if v != nil && (!finite(*v) || *v > 1e7) {
			return probekit.PathError(path+"."+[]string{"start", "end"}[i], "%g is not a time into the run", *v)
		}
	}
	if start != nil && end != nil && *end < *start {
		return probekit.PathError(path, "start %g, end %g are not a valid interval", *start, *end)
	}
	return nil
}

func psInterval(r *runInfo, g psGroup, i int, startMS int64, omit float64) (sample.Sample, error) {
	path := fmt.Sprintf("result.intervals[%d].summary", i)
	d := g.Summary
	if err := psRow(path, d); err != nil {
		return nil, err
	}
	omitted := d.Omitted != nil && *d.Omitted
	ts, err := intervalTS(startMS, *d.End, omit, omitted, path)
	if err != nil {
		return nil, err
	}
	rec := r.record(sample.RecordInterval, ts)
	rec.StartS, rec.EndS, rec.Omitted = d.Start, d.End, &omitted
	rec.BitsPerSecond = sample.F64(*d.Bits)
	if d.Bytes != nil {
		rec.Bytes = sample.I64(int64(math.Round(*d.Bytes)))
	}
	psCounts(rec, d, r.protocol == "udp")
	if r.protocol == "udp" {
		return rec, nil // a UDP stream has no congestion window or RTT
	}
	var cwnd int64
	var rtts []float64
	for _, s := range g.Streams {
		if s.TCPWindowSize != nil && *s.TCPWindowSize >= 0 && *s.TCPWindowSize < 1<<50 {
			cwnd += int64(*s.TCPWindowSize)
			rec.SndCwndBytes = &cwnd
		}
		if s.RTT != nil && finite(*s.RTT) && *s.RTT > 0 && *s.RTT < 1e12 {
			rtts = append(rtts, *s.RTT)
		}
	}
	rec.RTTMs = meanMs(rtts)
	return rec, nil
}

// psCounts copies, for a TCP test, retransmits, and for a UDP test the UDP figures. The schema
// allows every field in every row; in a TCP test sent is not packets (pScheduler's iperf2 tool
// puts iperf2's count of writes there), and a UDP test has no retransmits.
func psCounts(rec *sample.Throughput, d *psData, udp bool) {
	if !udp {
		rec.Retransmits = count(d.Retransmits.Ptr())
		return
	}
	rec.Packets = count(d.Sent.Ptr())
	rec.LostPackets = count(d.Lost.Ptr())
	if d.Jitter != nil && finite(*d.Jitter) {
		rec.JitterMs = sample.F64(*d.Jitter)
	}
	if rec.Packets != nil && rec.LostPackets != nil && *rec.Packets > 0 {
		rec.LossPercent = pct(sample.F64(float64(*rec.LostPackets) * 100 / float64(*rec.Packets)))
	}
}

// meanMs is the mean of microsecond RTTs, in milliseconds.
func meanMs(us []float64) *float64 {
	if len(us) == 0 {
		return nil
	}
	sum := 0.0
	for _, v := range us {
		sum += v
	}
	return sample.F64(sum / float64(len(us)) / 1000)
}

// psSummary: bits_per_second is the receiver's rate when the result has it
// (receiver-throughput-bits), else the sender's; bytes are given only with the sender's rate,
// as pScheduler reports no receiver byte count.
func psSummary(r *runInfo, res *psResult, startMS int64) (sample.Sample, error) {
	rec := r.record(sample.RecordSummary, startMS)
	if !res.Succeeded {
		msg := "the pScheduler run did not succeed"
		if res.Error != nil && strings.TrimSpace(*res.Error) != "" {
			msg = *res.Error
		}
		rec.Error = probekit.RunError(msg)
		return rec, nil
	}
	if res.Summary == nil {
		return nil, probekit.PathError("result.summary", "missing in a run that succeeded")
	}
	d := res.Summary.Summary
	if !psHasRate(d) {
		rec.Error = probekit.RunError("the pScheduler result gives no throughput (result.summary.summary.throughput-bits)")
		return rec, nil
	}
	if err := psRow("result.summary.summary", d); err != nil {
		return nil, err
	}
	rec.StartS, rec.EndS = d.Start, d.End
	if d.Start != nil && d.End != nil {
		rec.DurationS = sample.F64(*d.End - *d.Start)
	}
	rec.SentBitsPerSecond = sample.F64(*d.Bits)
	if d.Bytes != nil {
		rec.SentBytes = sample.I64(int64(math.Round(*d.Bytes)))
	}
	if d.ReceiverBits != nil {
		rec.ReceivedBitsPerSecond = sample.F64(*d.ReceiverBits)
		rec.BitsPerSecond = sample.F64(*d.ReceiverBits)
	} else {
		rec.BitsPerSecond, rec.Bytes = rec.SentBitsPerSecond, rec.SentBytes
	}
	psCounts(rec, d, r.protocol == "udp")
	var rtts []float64
	for _, s := range res.Summary.Streams {
		if s.RTT != nil && finite(*s.RTT) && *s.RTT > 0 && *s.RTT < 1e12 {
			rtts = append(rtts, *s.RTT)
		}
	}
	if r.protocol == "tcp" && r.direction == "forward" {
		rec.RTTMs = meanMs(rtts)
	}
	return rec, nil
}
