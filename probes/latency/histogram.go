package latency

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
)

// maxBuckets bounds a histogram: powstream rounds delays to hundredths of a bucket, so a
// minute of packets has at most a few thousand distinct keys.
const maxBuckets = 100000

// reBucket is pScheduler's key pattern for histogram-latency (a decimal number).
var reBucket = regexp.MustCompile(`^[-+]?([0-9]+(\.[0-9]+)?|\.[0-9]+)$`)

// bucket is one histogram entry: a value and how many packets saw it.
type bucket struct {
	value float64
	count int64
}

// histogram is a sorted list of buckets with packets in them.
type histogram []bucket

// readHistogram turns a pScheduler histogram object into buckets scaled by scale (a key times
// scale is the value), sorted by value. Empty buckets are dropped; a key that is no number, a
// negative count or too many keys is an error naming the key.
func readHistogram(h map[string]int64, scale float64) (histogram, error) {
	if len(h) > maxBuckets {
		return nil, fmt.Errorf("%d buckets, more than %d", len(h), maxBuckets)
	}
	out := make(histogram, 0, len(h))
	for k, n := range h {
		if !reBucket.MatchString(k) {
			return nil, fmt.Errorf("key %.40q is not a number", k)
		}
		if n < 0 {
			return nil, fmt.Errorf("key %q: negative count %d", k, n)
		}
		if n == 0 {
			continue
		}
		v, err := strconv.ParseFloat(k, 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, fmt.Errorf("key %.40q is not a number", k)
		}
		out = append(out, bucket{value: v * scale, count: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].value < out[j].value })
	return out, nil
}

// stats is what pScheduler's Histogram.get_stats computes that a sample carries.
type stats struct {
	n                           int64
	min, max, mean, median, p95 float64
	hasMedian, hasP95           bool
}

// summarize computes the statistics of a sorted histogram as latency_utils.Histogram does:
// mean over all packets, min and max of the buckets, and the median and 95th percentile by
// the NIST method (rank p/100 × (n+1), interpolated between neighbouring buckets).
func (h histogram) summarize() (stats, bool) {
	var s stats
	var sum float64
	for _, b := range h {
		s.n += b.count
		sum += b.value * float64(b.count)
	}
	if s.n == 0 {
		return s, false
	}
	s.mean = sum / float64(s.n)
	s.min, s.max = h[0].value, h[len(h)-1].value
	s.median, s.hasMedian = h.percentile(50, s.n)
	s.p95, s.hasP95 = h.percentile(95, s.n)
	return s, true
}

// percentile is latency_utils.Percentile: with rank r = p/100 × (n+1) split into k = ⌊r⌋ and
// d = r − k, the value is the bucket holding the k-th packet, moved d of the way to the next
// bucket when the (k+1)-th packet lies in it.
func (h histogram) percentile(p float64, n int64) (float64, bool) {
	r := p / 100 * float64(n+1)
	k := math.Floor(r)
	d := r - k
	var count int64
	pending := false
	var value float64
	for _, b := range h {
		count += b.count
		if float64(count) < k {
			continue
		}
		switch {
		case pending:
			return value + d*(b.value-value), true
		case k == 0:
			return b.value, true
		case count >= n && k >= float64(n):
			return b.value, true
		case k+d < float64(count):
			return b.value, true
		}
		value, pending = b.value, true
	}
	return 0, false
}
