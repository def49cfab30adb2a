package rtt

import (
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
	"longhaul/probes/probekit/golden"
)

var parsePingCase = golden.Tool("ping", func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
	return ParsePing(in, m, Requested{})
})

func TestPingGolden(t *testing.T) {
	golden.Run(t, "testdata/ping", parsePingCase)
}

func FuzzPing(f *testing.F) {
	golden.Fuzz(f, parsePingCase, golden.ImportArgs, golden.ErrorBound, "testdata/ping")
}

func BenchmarkParsePing(b *testing.B) {
	golden.Bench(b, parsePingCase, "testdata/ping")
}

func pingInput(s string) (*sample.RTT, error) { return pingBytes([]byte(s)) }

func pingBytes(in []byte) (*sample.RTT, error) { return golden.First[*sample.RTT](parsePingCase, in) }

func TestPingStaysWithinTimeMemoryAndErrorBounds(t *testing.T) {
	// Replies with one sequence number: ping reads every line (duplicates), then the garbage.
	golden.TextBounds(t, parsePingCase, "64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.1 ms\n")
}

func TestPingErrorsNameLineAndColumnAndQuoteLittle(t *testing.T) {
	long := strings.Repeat("z", 4000)
	for in, want := range map[string]string{
		"PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\n  " + long + "\n":                                 `line 2: not a line of ping output (col 3: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz…")`,
		"64 bytes from 10.0.0.1: icmp_seq=99999999999 ttl=64 time=1 ms\n":                                  `line 1: sequence number out of range (col 30: "seq=99999999999`,
		"PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\nPING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\n": "line 2: a second ping starts here",
	} {
		_, err := pingInput(in)
		if err == nil || !strings.HasPrefix(err.Error(), want) || len(err.Error()) > 200 {
			t.Errorf("%.60q: error %v, want one starting %q", in, err, want)
		}
	}
}

func TestPingCountsSentFromZeroOrOneAsThePingDoes(t *testing.T) {
	// iputils counts from 1, BSD, macOS and BusyBox from 0: a capture cut before the
	// statistics has sent the highest sequence number, plus one when it started at 0.
	for in, sent := range map[string]int64{
		"64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.1 ms\n64 bytes from 10.0.0.1: icmp_seq=3 ttl=64 time=0.1 ms\n": 3,
		"64 bytes from 10.0.0.1: seq=0 ttl=64 time=0.1 ms\n64 bytes from 10.0.0.1: seq=3 ttl=64 time=0.1 ms\n":           4,
		"64 bytes from 10.0.0.1: icmp_seq=0 ttl=64 time=0.1 ms\nRequest timeout for icmp_seq 1\n":                        2,
	} {
		r, err := pingInput(in)
		if err != nil || r.Sent != sent || r.Received != 2-int64(strings.Count(in, "Request")) {
			t.Errorf("%q: %+v %v, want sent %d", in, r, err, sent)
		}
	}
}

func TestPingSendErrorsWithRepliesAreLossNotFailure(t *testing.T) {
	r, err := pingInput("ping: sendto: No route to host\n64 bytes from 10.0.0.1: icmp_seq=0 ttl=64 time=0.1 ms\n")
	if err != nil || r.Error != nil || r.Received != 1 {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = pingInput("ping: sendto: No route to host\nRequest timeout for icmp_seq 0\n")
	if err != nil || r.Error == nil || r.Error.Class != sample.ErrNoRoute {
		t.Fatalf("nothing came back: %+v %v", r, err)
	}
}
