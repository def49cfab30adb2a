package rtt

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"longhaul/collectors/probes/probekit"
	"longhaul/collectors/sample"
)

var (
	reHeader = regexp.MustCompile(`^PING (\S+?)\s*\(([^)\s]+)\):?\s+(\d+)(?:\(\d+\))?\s+(?:data )?bytes`)
	reReply  = regexp.MustCompile(`^\d+ bytes from \S+?:? (?:icmp_)?seq=(\d+) ttl=\d+ time=(\d+(?:\.\d+)?) ms(?: \(DUP!\))?`)
	reICMP   = regexp.MustCompile(`^From \S+?:? (?:icmp_)?seq=\d+ (.+)$`)
	reStats  = regexp.MustCompile(`^(\d+) packets transmitted, (\d+)(?: packets)? received,(?: \+(\d+) duplicates,)?(?: \+(\d+) errors,)? (\d+(?:\.\d+)?)% packet loss`)
	reRTT    = regexp.MustCompile(`^(?:rtt|round-trip) min/avg/max(?:/(?:mdev|stddev))? = (\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)(?:/(\d+(?:\.\d+)?))? ms`)
	reIgnore = regexp.MustCompile(`^(?:--- .* ping statistics ---|pipe \d+|WARNING: .*)$`)
	reError  = regexp.MustCompile(`^ping6?: `)
)

// Requested is what the probe asked ping for; the output does not repeat it.
type Requested struct {
	IntervalS  float64
	PacketSize int
}

// pingRun collects what the lines of one ping run say.
type pingRun struct {
	target     *string
	size       *int64
	stats      []string
	rtt        []string
	replies    map[int64]bool
	dups       int64
	maxSeq     int64
	times      []float64
	icmpErrors []string
	toolErrors []string
}

// ParsePing imports the output of iputils (or BusyBox) ping, stdout followed by stderr, as one
// rtt sample. 100% loss is a measurement (rtt fields null, loss 100), not an error; the error
// is set when ping could not run (unknown host, no route) or when nothing came back and
// routers said why (Destination Host Unreachable). A capture cut before the statistics is
// summarised from its replies: sent is the highest icmp_seq seen. m.Start is required.
func ParsePing(out []byte, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	ts, err := m.StartMS()
	if err != nil {
		return nil, err
	}
	run := &pingRun{replies: map[int64]bool{}}
	for _, l := range probekit.Lines(out) {
		if err := run.line(l); err != nil {
			return nil, err
		}
	}
	r := sample.NewRTT(m.Src, m.Dst, m.ProbeID, m.RunID, ts)
	r.Tool = "ping"
	r.Target, r.PacketSize = run.target, run.size
	if r.Target == nil && m.Target != "" {
		t := m.Target
		r.Target = &t
	}
	if r.PacketSize == nil && q.PacketSize > 0 {
		r.PacketSize = sample.I64(int64(q.PacketSize))
	}
	if q.IntervalS > 0 {
		r.IntervalS = sample.F64(q.IntervalS)
	}
	switch {
	case run.stats != nil:
		if err := run.fromStats(r); err != nil {
			return nil, err
		}
	case len(run.replies) > 0:
		run.fromReplies(r)
	case len(run.toolErrors) > 0 || len(run.icmpErrors) > 0:
		r.LossPercent = 100 // nothing was measured; see README
	default:
		return nil, &probekit.LineError{Line: 1, Msg: "no ping statistics, replies or error: nothing to import"}
	}
	switch {
	case len(run.toolErrors) > 0:
		r.Error = probekit.RunError(strings.Join(run.toolErrors, "\n"))
	case r.Received == 0 && len(run.icmpErrors) > 0:
		r.Error = probekit.RunError(run.icmpErrors[0])
	}
	return []sample.Sample{r}, nil
}

func (run *pingRun) line(l probekit.Line) error {
	t := l.Text
	switch {
	case reIgnore.MatchString(t):
	case reHeader.MatchString(t):
		mm := reHeader.FindStringSubmatch(t)
		target := mm[1]
		run.target = &target
		if n, err := strconv.ParseInt(mm[3], 10, 64); err == nil && n <= 65535 {
			run.size = &n
		}
	case reReply.MatchString(t):
		mm := reReply.FindStringSubmatch(t)
		seq, err1 := strconv.ParseInt(mm[1], 10, 64)
		rtt, err2 := strconv.ParseFloat(mm[2], 64)
		if err1 != nil || err2 != nil || seq > 1<<31 || rtt > 1e7 {
			return l.Errorf("reply figures out of range")
		}
		if run.replies[seq] || strings.HasSuffix(t, "(DUP!)") {
			run.dups++
			return nil
		}
		run.replies[seq] = true
		run.maxSeq = max(run.maxSeq, seq)
		run.times = append(run.times, rtt)
	case reICMP.MatchString(t):
		run.icmpErrors = append(run.icmpErrors, t)
	case reStats.MatchString(t):
		run.stats = reStats.FindStringSubmatch(t)
		if mm := reRTT.FindStringSubmatch(afterComma(t)); mm != nil {
			run.rtt = mm
		}
	case reRTT.MatchString(t):
		run.rtt = reRTT.FindStringSubmatch(t)
	case reError.MatchString(t):
		run.toolErrors = append(run.toolErrors, t)
	default:
		return l.Errorf("not a line of ping output: %q", t)
	}
	return nil
}

// afterComma is the part of a BusyBox-joined line after the statistics, if any.
func afterComma(s string) string {
	if i := strings.Index(s, "round-trip"); i >= 0 {
		return s[i:]
	}
	return ""
}

func (run *pingRun) fromStats(r *sample.RTT) error {
	st := run.stats
	sent, err1 := strconv.ParseInt(st[1], 10, 64)
	recv, err2 := strconv.ParseInt(st[2], 10, 64)
	loss, _ := strconv.ParseFloat(st[5], 64)
	if err1 != nil || err2 != nil || recv > sent || loss > 100 {
		return &probekit.LineError{Line: 1, Msg: "ping statistics out of range: " + st[0]}
	}
	r.Sent, r.Received, r.LossPercent = sent, recv, loss
	if st[3] != "" {
		d, err := strconv.ParseInt(st[3], 10, 64)
		if err != nil {
			return &probekit.LineError{Line: 1, Msg: "duplicates out of range: " + st[3]}
		}
		r.Duplicates = &d
	}
	if run.rtt != nil && recv > 0 {
		f := make([]*float64, 4)
		for i := range f {
			if v, err := strconv.ParseFloat(run.rtt[i+1], 64); err == nil {
				f[i] = &v
			}
		}
		r.MinMs, r.AvgMs, r.MaxMs, r.MdevMs = f[0], f[1], f[2], f[3]
	}
	return nil
}

// fromReplies summarises replies the way ping would have: mdev is the population standard
// deviation of the RTTs.
func (run *pingRun) fromReplies(r *sample.RTT) {
	r.Sent, r.Received = run.maxSeq, int64(len(run.replies))
	if r.Sent < r.Received {
		r.Sent = r.Received
	}
	r.LossPercent = float64(r.Sent-r.Received) * 100 / float64(r.Sent)
	if run.dups > 0 {
		r.Duplicates = sample.I64(run.dups)
	}
	minT, maxT, sum, sum2 := math.Inf(1), 0.0, 0.0, 0.0
	for _, t := range run.times {
		minT, maxT = math.Min(minT, t), math.Max(maxT, t)
		sum += t
		sum2 += t * t
	}
	n := float64(len(run.times))
	avg := sum / n
	mdev := math.Sqrt(math.Max(0, sum2/n-avg*avg))
	r.MinMs, r.AvgMs, r.MaxMs, r.MdevMs = &minT, &avg, &maxT, &mdev
}
