package latency

import (
	"encoding/json"
	"math"
	"strings"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// psResult is a latency or latencybg result as the tools write it (pscheduler-test-latency's
// validate.py RESPONSE_SCHEMA): every field but succeeded is optional.
type psResult struct {
	Succeeded   *bool            `json:"succeeded"`
	Error       *string          `json:"error"`
	Diags       *string          `json:"diags"`
	Sent        *int64           `json:"packets-sent"`
	Received    *int64           `json:"packets-received"`
	Lost        *int64           `json:"packets-lost"`
	Duplicated  *int64           `json:"packets-duplicated"`
	Reordered   *int64           `json:"packets-reordered"`
	ClockError  *float64         `json:"max-clock-error"`
	Latency     map[string]int64 `json:"histogram-latency"`
	TTL         map[string]int64 `json:"histogram-ttl"`
	RawPackets  json.RawMessage  `json:"raw-packets"` // per-packet NTP timestamps: the histograms say it all
	SchemaField json.RawMessage  `json:"schema"`
}

// psSpec is what a latency or latencybg spec says that changes how the result reads.
type psSpec struct {
	Source      string   `json:"source"`
	Dest        string   `json:"dest"`
	BucketWidth *float64 `json:"bucket-width"`
	Reverse     bool     `json:"reverse"`
	Duration    string   `json:"duration"`
}

// defaultBucketWidth is pScheduler's (seconds): histogram keys are then milliseconds.
const defaultBucketWidth = 0.001

// tools are the tool names the sample names; any other is "pscheduler".
var tools = map[string]bool{"owping": true, "powstream": true, "twping": true}

// fill writes one result's figures into l. A run that did not succeed carries its error and
// whatever counters it has; the delay statistics come from histogram-latency (keys × bucket
// width, in ms), the TTLs from histogram-ttl.
func fill(l *sample.Latency, res psResult, bucketWidth float64) error {
	if res.Succeeded == nil {
		return probekit.PathError("result.succeeded", "missing")
	}
	for path, v := range map[string]*int64{"packets-sent": res.Sent, "packets-received": res.Received, "packets-lost": res.Lost, "packets-duplicated": res.Duplicated, "packets-reordered": res.Reordered} {
		if v != nil && *v < 0 {
			return probekit.PathError("result."+path, "negative: %d", *v)
		}
	}
	if *res.Succeeded && res.Sent == nil {
		return probekit.PathError("result.packets-sent", "missing: a successful latency run reports the packets it sent")
	}
	if res.Sent != nil {
		l.PacketsSent = *res.Sent
	}
	if res.Received != nil {
		l.PacketsReceived = *res.Received
	}
	l.PacketsLost = max(0, l.PacketsSent-l.PacketsReceived)
	if res.Lost != nil {
		l.PacketsLost = min(*res.Lost, l.PacketsSent)
	}
	l.PacketsDuplicated, l.PacketsReordered = res.Duplicated, res.Reordered
	if l.PacketsSent > 0 {
		l.LossPercent = probekit.Round(100*float64(l.PacketsLost)/float64(l.PacketsSent), 4)
	}
	if res.ClockError != nil && *res.ClockError >= 0 && !math.IsInf(*res.ClockError, 0) {
		l.ClockErrorMs = sample.F64(*res.ClockError)
	}
	if !*res.Succeeded {
		msg := "the pScheduler run did not succeed"
		if res.Error != nil && strings.TrimSpace(*res.Error) != "" {
			msg = *res.Error
		}
		l.Error = probekit.RunError(msg)
	}
	if err := fillDelay(l, res.Latency, bucketWidth); err != nil {
		return err
	}
	return fillTTL(l, res.TTL)
}

func fillDelay(l *sample.Latency, h map[string]int64, bucketWidth float64) error {
	buckets, err := readHistogram(h, bucketWidth*1000)
	if err != nil {
		return probekit.PathError("result.histogram-latency", "%v", err)
	}
	s, ok := buckets.summarize()
	if !ok {
		return nil
	}
	l.DelayMinMs, l.DelayMaxMs = ms(s.min), ms(s.max)
	l.DelayMeanMs = ms(s.mean)
	if s.hasMedian {
		l.DelayMedianMs = ms(s.median)
	}
	if s.hasP95 {
		l.DelayP95Ms = ms(s.p95)
	}
	if s.hasMedian && s.hasP95 {
		l.JitterMs = ms(math.Max(0, s.p95-s.median))
	}
	return nil
}

func fillTTL(l *sample.Latency, h map[string]int64) error {
	lo, hi := int64(-1), int64(-1)
	for k, n := range h {
		t, ok := ttlKey(k)
		if !ok {
			return probekit.PathError("result.histogram-ttl", "key %.40q is not a TTL (0-255)", k)
		}
		if n <= 0 {
			continue
		}
		if lo < 0 || t < lo {
			lo = t
		}
		if t > hi {
			hi = t
		}
	}
	if lo >= 0 {
		l.TTLMin, l.TTLMax = sample.I64(lo), sample.I64(hi)
	}
	return nil
}

// ttlKey reads a histogram-ttl key: a whole number 0-255.
func ttlKey(k string) (int64, bool) {
	if k == "" || len(k) > 3 {
		return 0, false
	}
	var t int64
	for _, c := range k {
		if c < '0' || c > '9' {
			return 0, false
		}
		t = t*10 + int64(c-'0')
	}
	return t, t <= 255
}

// ms rounds a delay to a microsecond (the histogram's keys are hundredths of a bucket).
func ms(v float64) *float64 { return sample.F64(probekit.Round(v, 3)) }

// bucketWidthOf is the spec's bucket-width (seconds), else pScheduler's default; a value
// outside (0, 1) is refused as pScheduler's spec schema refuses it.
func bucketWidthOf(spec psSpec) (float64, error) {
	if spec.BucketWidth == nil {
		return defaultBucketWidth, nil
	}
	w := *spec.BucketWidth
	if !(w > 0 && w < 1) {
		return 0, probekit.PathError("test.spec.bucket-width", "%v: must be above 0 and below 1 (seconds)", w)
	}
	return w, nil
}
