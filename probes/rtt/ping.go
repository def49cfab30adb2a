package rtt

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// The line classes of every ping this package reads (iputils, BSD/macOS, BusyBox); the
// golden cases under testdata/ping hold an example of each.
var (
	// PING host (addr) 56(84) bytes of data.              iputils
	// PING host (addr) from 10.0.0.1 eth0: 56(84) bytes…  iputils -I
	// PING ::1(::1) 56 data bytes                          iputils ping6
	// PING host (addr): 56 data bytes                      BSD, macOS, BusyBox
	// PING host(name (addr)) 56 data bytes                 iputils ping6 of a host name
	reHeader = regexp.MustCompile(`^PING (\S+?)\s*\(([^)\s]+)(?: \([^)\s]+\))?\)(?:\s+from\s+\S+(?:\s+[^\s:]+)?\s*)?:?\s+(\d+)(?:\(\d+\))?\s+(?:data )?bytes`)
	// PING6(56=40+8+8 bytes) 2001:db8::1 --> 2001:db8::2   BSD/macOS ping6
	rePing6BSD = regexp.MustCompile(`^PING6\(\d+=\d+\+\d+\+(\d+) bytes\) \S+ --> (\S+)$`)
	// [1795482148.657741] 64 bytes from host (addr): icmp_seq=1 ttl=63 time=0.054 ms
	// 16 bytes from ::1, icmp_seq=0 hlim=64 time=0.055 ms (macOS ping6); seq= (BusyBox);
	// icmp_req= (old iputils); no time when the payload is too short to carry one (-s 0).
	reReply = regexp.MustCompile(`^\d+ bytes from .+?[:,] (?:icmp_[rs]eq|seq)=(\d+) (?:ttl|hlim)=\d+(?: time[=<](\d+(?:\.\d+)?) ?ms)?`)
	// From 10.0.0.1 icmp_seq=1 Destination Host Unreachable (iputils; with a name too).
	reICMP = regexp.MustCompile(`^From .+? (?:icmp_[rs]eq|seq)=(\d+) (.+)$`)
	// 92 bytes from 10.0.0.1: Destination Host Unreachable (BSD, macOS; "from name (addr)"
	// when the router's address has a name).
	reICMPBSD = regexp.MustCompile(`^\d+ bytes from (?:\S+ \([^)\s]+\)|\S+?): ([A-Z].*)$`)
	// no answer yet for icmp_seq=3 (iputils -O); Request timeout for icmp_seq 3 (BSD, macOS).
	reNoAnswer = regexp.MustCompile(`^(?:no answer yet for icmp_seq=|Request timeout for icmp_seq )(\d+)$`)
	reStats    = regexp.MustCompile(`^(\d+) packets transmitted, (\d+)(?: packets)? received,(?: \+(\d+) duplicates,)?(?: \+(\d+) errors,)? (\d+(?:\.\d+)?)% packet loss`)
	reRTT      = regexp.MustCompile(`^(?:rtt|round-trip) min/avg/max(?:/(?:mdev|stddev|std-dev))? = (\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)(?:/(\d+(?:\.\d+)?))? ?ms`)
	// Lines that say nothing the sample keeps: the statistics banner, iputils' PATTERN (-p)
	// and pipe lines, warnings, the IP header BSD ping dumps after an ICMP error, and the ^C
	// a terminal echoes when the run is interrupted.
	reIgnore = regexp.MustCompile(`^(?:--- .* ping6? statistics ---|\^C|pipe \d+|PATTERN: 0x[0-9a-fA-F]*|WARNING: .*|ping6?: Warning: .*|Vr HL TOS .*|(?:[0-9a-f]{1,4}\s+){9,}\S+\s+\S+)$`)
	reError  = regexp.MustCompile(`^ping6?: `)
	reStamp  = regexp.MustCompile(`^\[\d+(?:\.\d+)?\] `)
	// pScheduler's ping tool's diagnostics: "Exited N" (since 2024), the command line, then
	// ping's "Standard output:" and "Standard error:".
	reExited = regexp.MustCompile(`^Exited -?\d+$`)
)

// pingPrograms are the command lines a saved output may begin with.
var pingPrograms = []string{"ping", "ping6", "ping-safe"}

// Requested is what the probe asked ping for; the output does not repeat it.
type Requested struct {
	IntervalS  float64
	PacketSize int
}

// pingRun collects what the lines of one ping run say. Replies are summed as they come
// (no list of times), so memory does not grow with the replies but for the set of
// sequence numbers seen, needed to tell duplicates.
type pingRun struct {
	target     *string
	size       *int64
	stats      []string
	rtt        []string
	replies    map[int64]bool
	timed      int64 // replies with a time
	dups       int64
	minSeq     int64 // lowest sequence number seen: iputils counts from 1, BSD and BusyBox from 0
	maxSeq     int64
	seqSeen    bool
	sum, sum2  float64
	minT, maxT float64
	icmpErrors []string
	toolErrors []string
	lines      int  // meaningful lines so far
	exited     bool // the first was pScheduler's "Exited N"
	command    bool // the output begins with its command line
}

// maxMessages bounds the error lines kept: the first few say why, the rest repeat it.
const maxMessages = 8

// ParsePing imports the output of ping, stdout followed by stderr, as one rtt sample:
// iputils (names, -I, -D, -O, -p, old icmp_req=, ping6), BSD and macOS (Request timeout,
// ICMP errors with their header dump, PING6), BusyBox. 100% loss is a measurement (rtt
// fields null, loss 100), not an error; the error is set when ping could not run (unknown
// host, no route) or when nothing came back and routers said why (Destination Host
// Unreachable). A capture cut before the statistics is summarised from its replies: sent is
// the highest sequence number seen (plus one when ping counts from 0). m.Start is required.
// Time is linear in the input; errors name line and column.
func ParsePing(out []byte, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	ts, err := m.StartMS()
	if err != nil {
		return nil, err
	}
	run := &pingRun{replies: map[int64]bool{}, minT: math.Inf(1)}
	if err := probekit.EachLine(out, run.line); err != nil {
		return nil, err
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
	case run.seqSeen:
		run.fromReplies(r)
	case len(run.toolErrors) > 0 || len(run.icmpErrors) > 0:
		r.LossPercent = 100 // nothing was measured; see README
	default:
		return nil, &probekit.LineError{Line: 1, Msg: "no ping statistics, replies or error: nothing to import"}
	}
	switch {
	case len(run.toolErrors) > 0 && (r.Received == 0 || !allSendErrors(run.toolErrors)):
		r.Error = probekit.RunError(strings.Join(run.toolErrors, "\n"))
	case r.Received == 0 && len(run.icmpErrors) > 0:
		r.Error = probekit.RunError(run.icmpErrors[0])
	}
	return []sample.Sample{r}, nil
}

// allSendErrors: BSD ping says "ping: sendto: …" for each packet it could not send and goes
// on; when replies still came back that is loss, measured, not a failed run.
func allSendErrors(msgs []string) bool {
	for _, m := range msgs {
		if !strings.HasPrefix(m, "ping: sendto: ") && !strings.HasPrefix(m, "ping6: sendmsg: ") {
			return false
		}
	}
	return true
}

func (run *pingRun) line(l probekit.TextLine) error {
	t := l.Text
	if run.lines++; run.lines <= 2 && run.preamble(t) {
		return nil
	}
	if run.command && (t == "Standard output:" || t == "Standard error:") {
		return nil
	}
	if mm := reStamp.FindString(t); mm != "" { // -D: the time of the line
		t = t[len(mm):]
	}
	switch { // the frequent lines first: replies are most of a run
	case strings.Contains(t, " bytes from "):
		return run.reply(l, t)
	case strings.HasPrefix(t, "PING"):
		return run.header(l, t)
	case reIgnore.MatchString(t):
	case strings.HasPrefix(t, "From "):
		mm := reICMP.FindStringSubmatch(t)
		if mm == nil {
			return l.Errorf("an ICMP error line without icmp_seq")
		}
		if err := run.seq(l, mm[1]); err != nil {
			return err
		}
		run.icmpError(t)
	case reNoAnswer.MatchString(t):
		return run.seq(l, reNoAnswer.FindStringSubmatch(t)[1])
	case reStats.MatchString(t):
		run.stats = reStats.FindStringSubmatch(t)
		if mm := reRTT.FindStringSubmatch(afterComma(t)); mm != nil {
			run.rtt = mm
		}
	case reRTT.MatchString(t):
		run.rtt = reRTT.FindStringSubmatch(t)
	case reError.MatchString(t):
		if len(run.toolErrors) < maxMessages {
			run.toolErrors = append(run.toolErrors, t)
		}
	default:
		return l.Errorf("not a line of ping output")
	}
	return nil
}

// preamble reads what may come before ping's own output: the command line a capture begins
// with ("$ ping -c 4 host"), or pScheduler's diagnostics ("Exited 0", then the command).
func (run *pingRun) preamble(t string) bool {
	switch {
	case run.lines == 1 && reExited.MatchString(t):
		run.exited = true
	case (run.lines == 1 || run.exited) && !run.command && probekit.CommandLine(t, pingPrograms...):
		run.command = true
	default:
		return false
	}
	return true
}

func (run *pingRun) header(l probekit.TextLine, t string) error {
	var target, size string
	if mm := reHeader.FindStringSubmatch(t); mm != nil {
		target, size = mm[1], mm[3]
	} else if mm := rePing6BSD.FindStringSubmatch(t); mm != nil {
		target, size = mm[2], mm[1]
	} else {
		return l.Errorf("a PING header of no known ping")
	}
	if run.target != nil {
		return l.Errorf("a second ping starts here: import one run per file")
	}
	run.target = &target
	if n, err := strconv.ParseInt(size, 10, 64); err == nil && n <= 65535 {
		run.size = &n
	}
	return nil
}

func (run *pingRun) reply(l probekit.TextLine, t string) error {
	mm := reReply.FindStringSubmatch(t)
	if mm == nil {
		if e := reICMPBSD.FindStringSubmatch(t); e != nil {
			run.icmpError(t)
			return nil
		}
		return l.ErrorAtToken(" from ", "a reply without icmp_seq and ttl")
	}
	seq, err := strconv.ParseInt(mm[1], 10, 64)
	if err != nil || seq > 1<<31 {
		return l.ErrorAtToken("seq=", "sequence number out of range")
	}
	var rtt float64
	if mm[2] != "" {
		if rtt, err = strconv.ParseFloat(mm[2], 64); err != nil || rtt > 1e7 {
			return l.ErrorAtToken("time", "round-trip time out of range")
		}
	}
	run.note(seq)
	if run.replies[seq] || strings.Contains(t, "(DUP!)") {
		run.dups++
		return nil
	}
	run.replies[seq] = true
	if mm[2] != "" {
		run.timed++
		run.minT, run.maxT = math.Min(run.minT, rtt), math.Max(run.maxT, rtt)
		run.sum += rtt
		run.sum2 += rtt * rtt
	}
	return nil
}

func (run *pingRun) seq(l probekit.TextLine, s string) error {
	seq, err := strconv.ParseInt(s, 10, 64)
	if err != nil || seq > 1<<31 {
		return l.ErrorAtToken(s, "sequence number out of range")
	}
	run.note(seq)
	return nil
}

func (run *pingRun) note(seq int64) {
	if !run.seqSeen || seq < run.minSeq {
		run.minSeq = seq
	}
	run.maxSeq = max(run.maxSeq, seq)
	run.seqSeen = true
}

func (run *pingRun) icmpError(t string) {
	if len(run.icmpErrors) < maxMessages {
		run.icmpErrors = append(run.icmpErrors, t)
	}
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
		return &probekit.LineError{Line: 1, Msg: "ping statistics out of range: " + probekit.Snippet(st[0])}
	}
	r.Sent, r.Received, r.LossPercent = sent, recv, loss
	if st[3] != "" {
		d, err := strconv.ParseInt(st[3], 10, 64)
		if err != nil {
			return &probekit.LineError{Line: 1, Msg: "duplicates out of range: " + probekit.Snippet(st[3])}
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
// deviation of the RTTs; figures are rounded to the microsecond (3 decimals), as ping prints
// them.
func (run *pingRun) fromReplies(r *sample.RTT) {
	base := min(run.minSeq, 1)
	r.Sent, r.Received = run.maxSeq-base+1, int64(len(run.replies))
	if r.Sent < r.Received {
		r.Sent = r.Received
	}
	r.LossPercent = round3(float64(r.Sent-r.Received) * 100 / float64(r.Sent))
	if run.dups > 0 {
		r.Duplicates = sample.I64(run.dups)
	}
	if run.timed == 0 {
		return
	}
	n := float64(run.timed)
	minT, maxT, avg := run.minT, run.maxT, round3(run.sum/n)
	mdev := round3(math.Sqrt(math.Max(0, run.sum2/n-run.sum/n*run.sum/n)))
	r.MinMs, r.AvgMs, r.MaxMs, r.MdevMs = &minT, &avg, &maxT, &mdev
}

func round3(v float64) float64 { return probekit.Round(v, 3) }
