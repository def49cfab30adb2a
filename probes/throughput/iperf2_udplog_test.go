package throughput

import (
	"runtime"
	"runtime/metrics"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit/golden"
	"longhaul/probes/throughput/internal/udplog"
)

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(m)
	return m[0].Value.Uint64()
}

// streamUDPLog streams the log's samples into nothing and returns the most heap found live
// while it did (read every 10 000 samples) and how many samples there were.
func streamUDPLog(in []byte) (peak uint64, n int, err error) {
	err = EachIperf2(in, importMeta(true), func(sample.Sample) error {
		if n++; n%10000 == 0 {
			peak = max(peak, liveHeap())
		}
		return nil
	})
	return max(peak, liveHeap()), n, err
}

// A 300 000-interval UDP server log (45 MB) is streamed: what stays live is its input and its
// rows, never its samples (670-730 MB when they were all kept, and the out-of-order lines in
// a map of their own).
func TestIperf2LongUDPServerLogIsStreamed(t *testing.T) {
	golden.Long(t)
	in := udplog.ServerLog(300000)
	runtime.GC()
	base := liveHeap()
	peak, n, err := streamUDPLog(in)
	if err != nil || n != 300001 {
		t.Fatalf("%d samples, %v", n, err)
	}
	t.Logf("input %d MB, most live heap %d MB (%d MB before)", len(in)>>20, peak>>20, base>>20)
	if peak-base > 120<<20 {
		t.Fatalf("%d MB live beside the input: the samples or the lines are kept", (peak-base)>>20)
	}
}

// BenchmarkParseIperf2UDPServerLog streams the 300 000-interval UDP server log's samples into
// nothing, as longhaul-probe parse does to stdout: B/op is all it allocates (mostly garbage,
// each sample), live-MB the most heap found live at once (the input's 43 MB included).
func BenchmarkParseIperf2UDPServerLog(b *testing.B) {
	in := udplog.ServerLog(300000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	var peak uint64
	for i := 0; i < b.N; i++ {
		p, n, err := streamUDPLog(in)
		if err != nil || n != 300001 {
			b.Fatalf("%d samples, %v", n, err)
		}
		peak = max(peak, p)
	}
	b.ReportMetric(float64(peak)/(1<<20), "live-MB")
}
