package rtt

import (
	"bytes"
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit/golden"
)

// The cases are real ping captures turned into archive messages the way pScheduler's ping
// tool writes them (testdata/pscheduler/derive.py).
var parsePSCase = golden.PScheduler(ParsePScheduler)

func TestPSchedulerRTTGolden(t *testing.T) {
	golden.Run(t, "testdata/pscheduler", parsePSCase)
}

const psHead = `{"id":"r1","test":{"type":"rtt","spec":{"source":"a","dest":"10.0.0.1","count":3}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":`

func psRun(res string) (*sample.RTT, error) {
	ss, err := ParsePScheduler([]byte(psHead+res+"}"), (golden.Case{}).MustMeta())
	if err != nil {
		return nil, err
	}
	return ss[0].(*sample.RTT), nil
}

func TestPSchedulerRTTReadsPingFromDiagsThatStartWithTheCommandLine(t *testing.T) {
	// pScheduler's own counts say nothing came back; the ping output in the diags is right.
	diags := `ping -n -c 2 -i 1 10.0.0.1\n\nStandard output:\nPING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\n64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.5 ms\n\n--- 10.0.0.1 ping statistics ---\n2 packets transmitted, 1 received, 50% packet loss, time 1001ms\nrtt min/avg/max/mdev = 0.500/0.500/0.500/0.000 ms\n\nStandard error:\n`
	r, err := psRun(`{"succeeded":true,"diags":"` + diags + `","result":{"sent":0,"received":0,"loss":100.0}}`)
	if err != nil || r.Sent != 2 || r.Received != 1 || r.LossPercent != 50 || *r.AvgMs != 0.5 || r.Tool != "pscheduler" {
		t.Fatalf("%+v %v", r, err)
	}
	for _, cmd := range []string{"sudo /usr/libexec/pscheduler/classes/tool/ping/ping-safe -n -c 2 10.0.0.1", "ping6 -n -c 2 10.0.0.1", "/bin/ping -c 2 10.0.0.1"} {
		if pingOutput(cmd+"\nPING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\n") == "" {
			t.Errorf("%q is not taken for ping's command line", cmd)
		}
	}
	if pingOutput("Exited 0\n\nping -n -c 2 10.0.0.1\n\nStandard output:\nPING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\n") == "" {
		t.Error(`diags that start with "Exited 0" (pScheduler 5.1) not read`)
	}
	if pingOutput("traceroute -n 10.0.0.1\n 1  10.0.0.1  0.1 ms\n") != "" {
		t.Error("diags of another tool taken for ping's")
	}
}

func TestPSchedulerRTTWithoutDiagsUsesTheFieldsAndTheSpecCount(t *testing.T) {
	r, err := psRun(`{"succeeded":true,"sent":0,"received":0,"min":"PT0.0001S","mean":"PT0.0002S","max":"PT0.0003S","stddev":"PT0.0001S",
		"roundtrips":[{"seq":1,"rtt":"PT0.0001S"},{"seq":2,"ip":"10.0.0.254","error":"host-unreachable"},{"seq":3,"rtt":"PT0.0003S"},{"seq":3,"rtt":"PT0.0003S"}]}`)
	if err != nil || r.Sent != 3 || r.Received != 2 || *r.Duplicates != 1 || *r.MaxMs != 0.3 || r.Error != nil {
		t.Fatalf("%+v %v", r, err)
	}
	// nothing of a round trip is required by pScheduler's result schema: without a seq, an
	// answered packet counts once and an empty one is lost (not a dead letter)
	r, err = psRun(`{"succeeded":true,"roundtrips":[{"rtt":"PT0.0001S"},{},{"error":"ttl-exceeded"}]}`)
	if err != nil || r.Sent != 3 || r.Received != 1 || r.LossPercent != 66.667 || r.Duplicates != nil {
		t.Fatalf("round trips without seq: %+v %v", r, err)
	}
	r, err = psRun(`{"succeeded":false,"error":"ping: nosuch: Name or service not known"}`)
	if err != nil || r.Error == nil || r.Error.Class != sample.ErrDNS || r.Sent != 0 || r.LossPercent != 100 {
		t.Fatalf("failed run: %+v %v", r, err)
	}
}

func TestPSchedulerRTTRefusesWhatItCannotMap(t *testing.T) {
	for res, want := range map[string]string{
		`{"succeeded":true,"roundtrips":[{"seq":-1,"rtt":"PT1S"}]}`:            "result.roundtrips[0].seq: out of range",
		`{"succeeded":true,"roundtrips":[{"seq":1,"rtt":"1ms"}],"min":"1 ms"}`: "result.min",
		`{"succeeded":true,"sent":1,"received":2}`:                             "result.received",
		`{"succeeded":true,"diags":"ping -c 1 x\ngarbage"}`:                    "JSON path result.diags: line 1: not a line of ping output",
		`{"succeeded":"yes"}`: "JSON path result.succeeded",
	} {
		_, err := psRun(res)
		if err == nil || !strings.Contains(err.Error(), want) || len(err.Error()) > golden.MaxErrorLen {
			t.Errorf("%s: error %v, want %q", res, err, want)
		}
	}
}

func TestPSchedulerRTTStaysWithinTimeMemoryAndErrorBounds(t *testing.T) {
	for name, in := range map[string][]byte{
		"50 MB message":            append(append([]byte(psHead+`{"succeeded":true,"diags":"`), bytes.Repeat([]byte("x"), golden.HugeInput)...), `"}}`...),
		"50 MB garbage":            bytes.Repeat([]byte("\x00garbage"), golden.HugeInput/8),
		"a 5 MB line in the diags": []byte(psHead + `{"succeeded":true,"diags":"ping -c 1 x\n` + strings.Repeat("y", 5<<20) + `"}}`),
	} {
		cpu := golden.CPUTime()
		_, err := ParsePScheduler(in, (golden.Case{}).MustMeta())
		if took := golden.CPUTime() - cpu; err == nil || len(err.Error()) > golden.MaxErrorLen || took > golden.MaxTime {
			t.Errorf("%s: %v after %v of CPU", name, err, took)
		}
	}
}

func FuzzPSchedulerRTT(f *testing.F) {
	golden.Fuzz(f, parsePSCase, nil, golden.ErrorBound, "testdata/pscheduler")
}

func BenchmarkParsePSchedulerRTT(b *testing.B) {
	golden.Bench(b, parsePSCase, "testdata/pscheduler")
}

// The diags are free text to pScheduler's schema: ping output in them that cannot be read
// leaves the result's own fields, when it has them, to be read.
func TestPSchedulerRTTUnreadableDiagsFallBackOnTheFields(t *testing.T) {
	r, err := psRun(`{"succeeded":true,"diags":"ping -c 1 x\ngarbage","loss":0,"sent":1,"received":1,"roundtrips":[{"seq":1,"rtt":"PT0.002S"}],"min":"PT0.002S"}`)
	if err != nil || r.Sent != 1 || r.Received != 1 || *r.MinMs != 2 {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestPSLossFromCountsElseFromTheResultsFraction(t *testing.T) {
	half, bad := 0.5, 100.0 // pScheduler's ping tool falls back to 100.0, not a fraction
	for _, c := range []struct {
		sent, received int64
		loss           *float64
		want           float64
	}{{4, 3, nil, 25}, {4, 3, &half, 25}, {0, 0, &half, 50}, {0, 0, nil, 100}, {0, 0, &bad, 100}} {
		if got := psLoss(c.sent, c.received, c.loss); got != c.want {
			t.Errorf("psLoss(%d, %d, %v) = %v, want %v", c.sent, c.received, c.loss, got, c.want)
		}
	}
}
