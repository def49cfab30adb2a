package throughput

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"longhaul/collectors/probes/probekit/golden"
	"longhaul/ingest/sample"
)

// iperf2UDPServerLog is an iperf 2 UDP server's log of n one-second intervals, each followed by
// its "datagrams received out-of-order" line (as a server receiving over a path that reorders
// prints them, seed004-oplapro73-udp-server-out-of-order), then the final row and its own.
func iperf2UDPServerLog(n int) []byte {
	var b strings.Builder
	b.Grow(n * 150)
	b.WriteString("------------------------------------------------------------\nServer listening on UDP port 5001\nReceiving 1470 byte datagrams\nUDP buffer size: 2.00 MByte (default)\n------------------------------------------------------------\n")
	b.WriteString("[  3] local 10.0.0.1 port 5001 connected with 10.0.0.2 port 32769\n")
	for i := 0; i < n; i++ {
		lost := i % 200
		fmt.Fprintf(&b, "[  3] %4d.0-%4d.0 sec    114 MBytes    955 Mbits/sec  0.015 ms  %d/81365 (%.2g%%)\n", i, i+1, lost, float64(lost)*100/81365)
		fmt.Fprintf(&b, "[  3] %4d.0-%4d.0 sec  %d datagrams received out-of-order\n", i, i+1, i%9)
	}
	fmt.Fprintf(&b, "[  3]  0.0-%d.0 sec  %d MBytes    953 Mbits/sec  0.019 ms 7299/%d (0.3%%)\n", n, 114*n, 81365*n)
	fmt.Fprintf(&b, "[  3]  0.0-%d.0 sec  %d datagrams received out-of-order\n", n, 4*n)
	return []byte(b.String())
}

// TestWriteIperf2UDPServerLog writes the 300 000-interval log to $LONGHAUL_IPERF2_UDP_LOG, for
// measuring `longhaul-probe parse` on it (docs/benchmarks.md); skipped without the variable.
func TestWriteIperf2UDPServerLog(t *testing.T) {
	out := os.Getenv("LONGHAUL_IPERF2_UDP_LOG")
	if out == "" {
		t.Skip("LONGHAUL_IPERF2_UDP_LOG not set")
	}
	if err := os.WriteFile(out, iperf2UDPServerLog(300000), 0o644); err != nil {
		t.Fatal(err)
	}
}

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
	in := iperf2UDPServerLog(300000)
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
	in := iperf2UDPServerLog(300000)
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
