package throughput

import (
	"fmt"
	"strings"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// ParseIperf3 turns what iperf3 printed with -J (or --json-stream) into one interval record
// per reporting interval and exactly one summary per direction, which carries `error` when
// iperf3 reported one (connection refused, server busy, the server leaving mid-run…) or when
// the output is cut short. Intervals printed before a failure or a cut are kept.
//
// Times: the summary's ts is start.timestamp (or m.Start when iperf3 failed before printing
// it); an interval's ts is that start plus its end offset, plus the omit period for the
// intervals after it (iperf3 restarts its clock when the omitted seconds are over). An interval
// repeated verbatim (iperf3 prints the last one twice when the server leaves) is kept once.
//
// Sides and directions: src is the client, dst the server, whichever side's log this is
// (`iperf3 -s -J` prints the server's own: it has the received figures of a forward test and
// the sent ones of a reverse test; what only the other side measured is left out). A --bidir
// run is two directions measured at once: each is a run of its own, run id + "-forward" and
// run id + "-reverse", each with its intervals and its one summary.
func ParseIperf3(out []byte, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	ss, err := parseIperf3(out, m, q)
	return ss, boundErr(err)
}

func parseIperf3(out []byte, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	o, err := decodeIperf3(out)
	if err != nil {
		return nil, err
	}
	r, err := iperf3Run(o, m, q)
	if err != nil {
		return nil, err
	}
	startMS, err := iperf3Start(o, m)
	if err != nil {
		return nil, err
	}
	omit := 0.0
	if o.Start.TestStart != nil {
		omit = o.Start.TestStart.Omit
	}
	var ss []sample.Sample
	for _, v := range iperf3Views(o, r) {
		rv := v.run(r, o)
		var prev *i3Stream
		for i := range o.Intervals {
			cur := v.intervalSum(&o.Intervals[i])
			if repeated(prev, cur) {
				continue
			}
			prev = cur
			rec, err := iperf3Interval(rv, v, &o.Intervals[i], cur, i, startMS, omit)
			if err != nil {
				return nil, err
			}
			ss = append(ss, rec)
		}
		sum, err := iperf3Summary(rv, v, o, startMS)
		if err != nil {
			return nil, err
		}
		ss = append(ss, sum)
	}
	return ss, nil
}

// afterOmitReset mends the first interval after the omitted ones as iperf3 (3.12, -O) prints it:
// its clock restarts at the end of the omit period, and that interval's start is still in the old
// time base ("start": 1.003244, "end": 1.000008, "seconds": 2.003) while its bytes are those of
// [0, end] in the new one. It becomes [0, end] with its rate from its bytes. Anything else that
// ends before it starts stays as it is, and is refused.
func afterOmitReset(s *i3Stream, omitted bool, omit float64) *i3Stream {
	if omitted || omit <= 0 || !finite(s.Start) || !finite(s.End) || s.End >= s.Start || s.End <= 0 || s.Start > omit+s.End {
		return s
	}
	fixed := *s
	fixed.Start = 0
	fixed.Seconds = s.End
	fixed.BitsPerSecond = float64(s.Bytes) * 8 / s.End
	return &fixed
}

// repeated spots the interval iperf3 prints twice when the server leaves mid-run.
func repeated(prev, cur *i3Stream) bool {
	return prev != nil && cur != nil && prev.Start == cur.Start && prev.End == cur.End
}

func iperf3Run(o *i3Output, m probekit.Meta, q Requested) (*runInfo, error) {
	r := &runInfo{meta: m, tool: "iperf3"}
	if v := strings.TrimSpace(strings.TrimPrefix(o.Start.Version, "iperf ")); v != "" {
		r.toolVersion = sample.Str(probekit.Snippet(v))
	}
	if c := o.Start.ConnectingTo; c != nil {
		if c.Host != "" {
			r.target = sample.Str(probekit.Snippet(c.Host))
		}
		if c.Port >= 1 && c.Port <= 65535 {
			r.port = sample.I64(c.Port)
		}
	} else if serverLog(o) && len(o.Start.Connected) > 0 {
		if p := o.Start.Connected[0].LocalPort; p >= 1 && p <= 65535 {
			r.port = sample.I64(p) // the server's listening port
		}
	}
	if ts := o.Start.TestStart; ts != nil {
		switch p := strings.ToLower(ts.Protocol); p {
		case "tcp", "udp":
			r.protocol = p
		default:
			return nil, probekit.PathError("start.test_start.protocol", "%q is not tcp or udp", probekit.Snippet(ts.Protocol))
		}
		if ts.NumStreams >= 1 {
			r.streams = sample.I64(ts.NumStreams)
		}
		r.direction = "forward"
		if ts.Reverse != 0 {
			r.direction = "reverse"
		}
		if !finite(ts.Omit) || ts.Omit > 86400 {
			return nil, probekit.PathError("start.test_start.omit", "%g is out of range", ts.Omit)
		}
	}
	if b := o.Start.SockBufsize; b != nil && *b > 0 {
		r.window = sample.I64(*b)
	}
	r.fromRequested(q)
	return r, nil
}

func iperf3Start(o *i3Output, m probekit.Meta) (int64, error) {
	if t := o.Start.Timestamp; t != nil && t.Timesecs != nil {
		if *t.Timesecs > probekit.MaxEpochMS/1000 {
			return 0, probekit.PathError("start.timestamp.timesecs", "%d is out of range", *t.Timesecs)
		}
		ms, err := probekit.CheckEpochMS(*t.Timesecs * 1000)
		if err != nil {
			return 0, probekit.PathError("start.timestamp.timesecs", "%v", err)
		}
		return ms, nil
	}
	return m.StartMS()
}

// intervalTS is the ts of an interval that ends end seconds into the run started at startMS:
// after the omitted intervals iperf3's clock has restarted, so the omit period is added back.
// path locates the interval in the input for the error.
func intervalTS(startMS int64, end, omit float64, omitted bool, path string) (int64, error) {
	offset := end
	if !omitted {
		offset += omit
	}
	ts, err := probekit.OffsetMS(startMS, offset)
	if err != nil {
		return 0, probekit.PathError(path+".end", "%v", err)
	}
	return ts, nil
}

func iperf3Interval(r *runInfo, v *i3View, iv *i3Interval, s *i3Stream, i int, startMS int64, omit float64) (sample.Sample, error) {
	path := fmt.Sprintf("intervals[%d].%s", i, v.sumName)
	if s == nil {
		return nil, probekit.PathError(path, "missing")
	}
	omitted := s.Omitted != nil && *s.Omitted
	s = afterOmitReset(s, omitted, omit)
	if !finite(s.Start) || !finite(s.End) || s.End < s.Start || s.Bytes < 0 || !finite(s.BitsPerSecond) {
		return nil, probekit.PathError(path, "start %g, end %g, bytes %d, bits_per_second %g are not a valid interval", s.Start, s.End, s.Bytes, s.BitsPerSecond)
	}
	ts, err := intervalTS(startMS, s.End, omit, omitted, path)
	if err != nil {
		return nil, err
	}
	rec := r.record(sample.RecordInterval, ts)
	rec.StartS, rec.EndS = sample.F64(s.Start), sample.F64(s.End)
	rec.Omitted = &omitted
	rec.Bytes = sample.I64(s.Bytes)
	rec.BitsPerSecond = sample.F64(s.BitsPerSecond)
	rec.Retransmits = count(s.Retransmits)
	rec.Packets = count(s.Packets)
	if j := s.JitterMs; j != nil && finite(*j) {
		rec.JitterMs = sample.F64(*j)
	}
	rec.LostPackets = count(s.LostPackets)
	rec.LossPercent = pct(s.LostPercent)
	streamFigures(rec, v, iv.Streams)
	return rec, nil
}

// streamFigures adds what only the per-stream rows carry: the congestion window and the
// receiver's advertised window, each summed over the streams (what the whole transfer may have
// in flight), and the smoothed RTT and its
// variance, averaged over the streams that report one. With --bidir only the streams of the
// view's direction count.
func streamFigures(rec *sample.Throughput, v *i3View, streams []i3Stream) {
	var cwnd, wnd int64
	var haveCwnd, haveWnd bool
	var rtt, rttvar float64
	var nRTT, nVar int
	for i := range streams {
		st := &streams[i]
		if !v.mine(st.Sender) {
			continue
		}
		if st.SndCwnd != nil && *st.SndCwnd >= 0 && *st.SndCwnd < 1<<50 {
			cwnd += *st.SndCwnd
			haveCwnd = true
		}
		if st.SndWnd != nil && *st.SndWnd >= 0 && *st.SndWnd < 1<<50 {
			wnd += *st.SndWnd
			haveWnd = true
		}
		if st.RTT != nil && finite(*st.RTT) && *st.RTT > 0 && *st.RTT < 1e12 {
			rtt += *st.RTT
			nRTT++
		}
		if st.RTTVar != nil && finite(*st.RTTVar) && *st.RTTVar > 0 && *st.RTTVar < 1e12 {
			rttvar += *st.RTTVar
			nVar++
		}
	}
	if haveCwnd && cwnd >= 0 {
		rec.SndCwndBytes = sample.I64(cwnd)
	}
	if haveWnd {
		rec.SndWndBytes = sample.I64(wnd)
	}
	if nRTT > 0 {
		rec.RTTMs = sample.F64(rtt / float64(nRTT) / 1000)
	}
	if nVar > 0 {
		rec.RTTVarMs = sample.F64(rttvar / float64(nVar) / 1000)
	}
}
