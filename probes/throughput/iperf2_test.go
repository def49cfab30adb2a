package throughput

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit/golden"
)

var parseIperf2Case = golden.Tool("iperf2", ParseIperf2)

func TestIperf2Golden(t *testing.T) {
	golden.Run(t, "testdata/iperf2", parseIperf2Case)
}

// A dual test (-d at once, -r one after the other) is two runs, one per direction, from
// either side's output; [SUM] rows, which add up both directions, are left out.
func TestIperf2DualTestIsTwoRuns(t *testing.T) {
	for _, dir := range []string{"dual-d-client", "dual-d-server", "dual-r-client", "dual-r-server"} {
		ss, err := parseIperf2Case(goldenCase(t, "iperf2/iperf2.1-"+dir+"-lo"))
		if err != nil {
			t.Fatal(err)
		}
		sums := summaries(ss)
		if len(sums) != 2 || sums[0].RunID == sums[1].RunID || sums[0].Direction == sums[1].Direction {
			t.Fatalf("%s: %+v", dir, sums)
		}
		for _, s := range sums {
			if !strings.HasSuffix(s.RunID, "-"+s.Direction) || s.BitsPerSecond == nil || *s.BitsPerSecond < 100e6 || *s.BitsPerSecond > 110e6 {
				t.Errorf("%s: %s %s at %v bit/s", dir, s.RunID, s.Direction, s.BitsPerSecond)
			}
		}
	}
}

// -R (2.1): the server sends, from either side's output.
func TestIperf2ReverseRunIsReverse(t *testing.T) {
	for _, dir := range []string{"iperf2/iperf2.1-reverse-R-client-lo", "iperf2/iperf2.1-reverse-R-server-lo"} {
		ss, err := parseIperf2Case(goldenCase(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		if s := summaries(ss); len(s) != 1 || s[0].Direction != "reverse" {
			t.Fatalf("%s: %+v", dir, s)
		}
	}
}

func TestIperf2ReadsLossInExponentForm(t *testing.T) {
	for in, want := range map[string]float64{
		"[  1] 0.0000-20.0002 sec   125 MBytes  52.4 Mbits/sec   0.001 ms 1/1310727 (7.6e-05%)": 7.6e-05,
		"[  3]  0.0-10.0 sec  0.00 Bytes  0.00 bits/sec   0.000 ms 893/893 (1e+02%)":            100,
		"[  3]  0.0-10.0 sec  1.25 MBytes  1.05 Mbits/sec   0.011 ms    0/  893 (0%)":           0,
	} {
		ss, err := ParseIperf2([]byte("Server listening on UDP port 5001\n"+in+"\n"), importMeta(true))
		if err != nil {
			t.Fatal(err)
		}
		if s := summaries(ss)[0]; s.LossPercent == nil || *s.LossPercent != want {
			t.Errorf("%s: loss %v, want %g", in, s.LossPercent, want)
		}
	}
}

// Errors name line and column (from 1) and quote a short snippet from there.
func TestIperf2ErrorsSayWhereWithASnippet(t *testing.T) {
	in := "Client connecting to 10.0.0.1, TCP port 5001\n[  3]  0.0- 1.0 sec  1 MBytes  8 Mbits/sec\n   [  3] what is this " + strings.Repeat("x", 3000) + "\n"
	_, err := ParseIperf2([]byte(in), importMeta(true))
	if err == nil || !strings.HasPrefix(err.Error(), "line 3: not a line of iperf 2 output (col 10: \"what is this") || len(err.Error()) > 200 {
		t.Fatalf("%v", err)
	}
}

// iperf2Log is a client's log of n one-second intervals and its final row.
func iperf2Log(n int) []byte {
	var b strings.Builder
	b.WriteString("------------------------------------------------------------\nClient connecting to 10.0.0.1, TCP port 5001\nTCP window size: 85.0 KByte (default)\n------------------------------------------------------------\n")
	b.WriteString("[  3] local 10.0.0.2 port 40000 connected with 10.0.0.1 port 5001\n[ ID] Interval       Transfer     Bandwidth\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "[  3] %d.0-%d.0 sec   112 MBytes   941 Mbits/sec\n", i, i+1)
	}
	fmt.Fprintf(&b, "[  3]  0.0-%d.0 sec  %d MBytes   941 Mbits/sec\n", n, 112*n)
	return []byte(b.String())
}

// Time is linear in the input: 300 000 intervals (83 hours of -i 1, 16 MB) take about ten
// times the CPU 30 000 take (1.5 s here), and seconds at most.
func TestIperf2ParsesALongLogInLinearTime(t *testing.T) {
	golden.Long(t)
	var took [2]time.Duration
	for i, n := range []int{30000, 300000} {
		in := iperf2Log(n)
		start := golden.CPUTime()
		ss, err := ParseIperf2(in, importMeta(true))
		took[i] = golden.CPUTime() - start
		if err != nil || len(ss) != n+1 {
			t.Fatalf("%d intervals: %d samples, %v", n, len(ss), err)
		}
		t.Logf("%d intervals (%d MB): %v of CPU", n, len(in)>>20, took[i].Round(time.Millisecond))
	}
	if took[1] > 10*time.Second || took[1] > 25*took[0] {
		t.Fatalf("300 000 intervals took %v of CPU, 30 000 %v: not linear", took[1], took[0])
	}
}

func TestIperf2IsBounded(t *testing.T) {
	checkBounded(t, func(in []byte) ([]sample.Sample, error) { return ParseIperf2(in, importMeta(true)) })
}

func FuzzIperf2(f *testing.F) {
	golden.Fuzz(f, parseIperf2Case, golden.ImportArgs, checkErrorBound, "testdata/iperf2")
}

func BenchmarkParseIperf2(b *testing.B) {
	in := iperf2Log(10000)
	m := importMeta(true)
	golden.BenchInput(b, in, func(in []byte) ([]sample.Sample, error) { return ParseIperf2(in, m) })
}
