package rtt

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// psRTT is a pScheduler rtt result: the merged form archivers send, or one participant's
// full form ({succeeded, error, diags, result: {…}}). Its counts are draft-7 integers
// (probekit.Int: 5.0 is one). Of the other fields pScheduler's schema allows, schema, lost
// (sent − received) and reorders have no place in a sample and are not read; loss (a fraction)
// is read only when no count of packets sent is known (see psLoss).
type psRTT struct {
	Succeeded  *bool         `json:"succeeded"`
	Error      *string       `json:"error"`
	Diags      *string       `json:"diags"`
	Result     *psRTT        `json:"result"`
	Sent       *probekit.Int `json:"sent"`
	Received   *probekit.Int `json:"received"`
	Duplicates *probekit.Int `json:"duplicates"`
	Loss       *float64      `json:"loss"`
	Min        *string       `json:"min"`
	Mean       *string       `json:"mean"`
	Max        *string       `json:"max"`
	StdDev     *string       `json:"stddev"`
	Roundtrips []psRound     `json:"roundtrips"`
}

// psRound is one round trip; its ip, length and ttl (and the hostname pScheduler's tcpping tool
// adds) are not read.
type psRound struct {
	Seq   *probekit.Int `json:"seq"`
	RTT   *string       `json:"rtt"`
	Error *string       `json:"error"`
}

type psRTTSpec struct {
	Dest     string `json:"dest"`
	Count    int64  `json:"count"`
	Length   *int64 `json:"length"`
	Interval string `json:"interval"`
}

// maxPSRTT bounds an rtt archive message: a few thousand round trips with the diags.
const maxPSRTT = 8 << 20

// reCommand is the command line pScheduler's ping tool puts first in its diags
// ("ping -n -c 5 -i 1.0 -W 1.0 10.0.0.1", "sudo …/ping-safe …", "ping6 …").
var reCommand = regexp.MustCompile(`^(?:sudo \S+|\S*/)?(?:ping6?|ping-safe)(?: |$)`)

// ParsePScheduler imports a pScheduler archive message of an rtt test as one rtt sample
// with tool "pscheduler". The ping tool's diags are its command line, then ping's stdout and
// stderr ("Standard output:", "Standard error:"): when they hold ping's output it is read
// the way ParsePing reads it, so the figures are ping's own (pScheduler's sent, received and
// loss are not always filled in). Otherwise the result's fields are used: sent (else the
// spec's count), the round trips without an error as received, min/mean/max/stddev (ISO 8601
// durations). A run that did not succeed carries its error. ts is schedule.start; src and
// dst default to the test's source (or first participant) and dest; the run id is the
// message's id.
func ParsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	if err := probekit.CheckSize(input, maxPSRTT, "pScheduler run"); err != nil {
		return nil, err
	}
	return probekit.ParseArchive(input, m, FromArchive)
}

// FromArchive is ParsePScheduler of a message decoded already (probekit.ArchiveImporter).
func FromArchive(a *probekit.Archive, input []byte, m probekit.Meta) ([]sample.Sample, error) {
	if err := probekit.CheckSize(input, maxPSRTT, "pScheduler run"); err != nil {
		return nil, err
	}
	ts, err := a.Open(input, &m, "rtt")
	if err != nil {
		return nil, err
	}
	var spec psRTTSpec
	var res psRTT
	if err := a.Decode(&spec, &res); err != nil {
		return nil, err
	}
	m.Start = time.UnixMilli(ts)
	m.Target = spec.Dest
	q := Requested{}
	if spec.Length != nil && *spec.Length >= 0 && *spec.Length <= 65535 {
		q.PacketSize = int(*spec.Length)
	}
	if spec.Interval != "" {
		s, err := probekit.ISODurationSeconds(spec.Interval)
		if err != nil {
			return nil, probekit.PathError("test.spec.interval", "%v", err)
		}
		q.IntervalS = s
	}
	stats := &res
	if res.Result != nil {
		stats = res.Result
	}
	if res.Diags != nil {
		ss, err := psFromDiags(*res.Diags, m, q)
		switch {
		case err != nil && stats.Roundtrips == nil:
			return nil, err
		case err == nil && ss != nil:
			r := ss[0].(*sample.RTT)
			r.Tool = "pscheduler"
			if r.Error == nil && res.Succeeded != nil && !*res.Succeeded {
				r.Error = psError(res)
			}
			return ss, nil
		}
		// diags are free text to the schema: ping output that cannot be read leaves the fields
	}
	r := sample.NewRTT(m.Src, m.Dst, m.ProbeID, m.RunID, ts)
	r.Tool = "pscheduler"
	if spec.Dest != "" {
		d := spec.Dest
		r.Target = &d
	}
	if q.PacketSize > 0 || spec.Length != nil {
		r.PacketSize = sample.I64(int64(q.PacketSize))
	}
	if q.IntervalS > 0 {
		r.IntervalS = sample.F64(q.IntervalS)
	}
	if res.Succeeded == nil || !*res.Succeeded {
		r.LossPercent = 100
		r.Error = psError(res)
		return []sample.Sample{r}, nil
	}
	if err := psFigures(r, stats, spec); err != nil {
		return nil, err
	}
	return []sample.Sample{r}, nil
}

// psFromDiags reads ping's output in the diags; nil when the diags hold none.
func psFromDiags(diags string, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	out := pingOutput(diags)
	if out == "" {
		return nil, nil
	}
	ss, err := ParsePing([]byte(out), m, q)
	if err != nil {
		return nil, probekit.PathError("result.diags", "%v", err)
	}
	return ss, nil
}

func psError(res psRTT) *sample.RunError {
	if res.Error != nil && strings.TrimSpace(*res.Error) != "" {
		return probekit.RunError(*res.Error)
	}
	return probekit.RunError("the pScheduler run did not succeed")
}

// pingOutput is what ping printed, from the diags: "Exited N", the command line and the
// section titles dropped; "" when the diags do not start with a ping command line.
func pingOutput(diags string) string {
	first, rest, _ := strings.Cut(diags, "\n")
	if reExited.MatchString(strings.TrimSpace(first)) { // since pScheduler 5.1: "Exited N" first
		first, rest, _ = strings.Cut(strings.TrimLeft(rest, "\r\n"), "\n")
	}
	if !reCommand.MatchString(strings.TrimSpace(first)) {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(rest, "\n") {
		switch strings.TrimSpace(l) {
		case "Standard output:", "Standard error:":
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if strings.TrimSpace(b.String()) == "" {
		return ""
	}
	return b.String()
}

// psFigures fills the counts and times from the result's fields. pScheduler's rtt result schema
// requires no field of a round trip (pscheduler-test-rtt's validate.py): one without a seq is
// an answered packet when it has an rtt (counted, never as a duplicate) and an unanswered, so
// lost, packet when it has none.
func psFigures(r *sample.RTT, res *psRTT, spec psRTTSpec) error {
	seen := map[int64]bool{}
	var maxSeq, unnumbered int64
	for i, rt := range res.Roundtrips {
		if rt.Seq == nil {
			if rt.Error == nil && rt.RTT != nil {
				unnumbered++
			}
			continue
		}
		seq := int64(*rt.Seq)
		if seq < 0 || seq > 1<<31 {
			return probekit.PathError("result.roundtrips["+strconv.Itoa(i)+"].seq", "out of range")
		}
		maxSeq = max(maxSeq, seq)
		if rt.Error != nil || rt.RTT == nil {
			continue
		}
		if seen[seq] {
			r.Duplicates = sample.I64(ptrOr(r.Duplicates) + 1)
			continue
		}
		seen[seq] = true
	}
	if d := res.Duplicates.Ptr(); d != nil && *d > 0 && *d <= 1<<31 {
		r.Duplicates = d // the tool's own count; none is left absent, as ParsePing leaves it
	}
	switch {
	case res.Sent != nil && *res.Sent > 0:
		r.Sent = int64(*res.Sent)
	case spec.Count > 0:
		r.Sent = spec.Count
	default:
		r.Sent = max(maxSeq, int64(len(res.Roundtrips)))
	}
	r.Received = int64(len(seen)) + unnumbered
	if res.Received != nil && *res.Received > 0 && res.Sent != nil && *res.Sent > 0 {
		r.Received = int64(*res.Received)
	}
	if r.Received > r.Sent {
		return probekit.PathError("result.received", "%d received of %d sent", r.Received, r.Sent)
	}
	r.LossPercent = psLoss(r.Sent, r.Received, res.Loss)
	if r.Received == 0 {
		return nil
	}
	for _, f := range []struct {
		path string
		v    *string
		dst  **float64
	}{{"result.min", res.Min, &r.MinMs}, {"result.mean", res.Mean, &r.AvgMs}, {"result.max", res.Max, &r.MaxMs}, {"result.stddev", res.StdDev, &r.MdevMs}} {
		if f.v == nil {
			continue
		}
		s, err := probekit.ISODurationSeconds(*f.v)
		if err != nil {
			return probekit.PathError(f.path, "%v", err)
		}
		ms := math.Round(s*1e9) / 1e6
		*f.dst = &ms
	}
	return nil
}

// psLoss is the loss in percent: from the counts, or, when no packet count is known (a result
// with no sent, no round trips and no count in the spec), the result's loss, a fraction
// (#/pScheduler/Probability); 100 when neither says.
func psLoss(sent, received int64, loss *float64) float64 {
	switch {
	case sent > 0:
		return math.Round(float64(sent-received)*100/float64(sent)*1000) / 1000
	case loss != nil && *loss >= 0 && *loss <= 1:
		return math.Round(*loss*100*1000) / 1000
	}
	return 100
}

func ptrOr(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
