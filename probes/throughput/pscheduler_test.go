package throughput

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit/golden"
)

// The pScheduler cases are real iperf3 captures wrapped into archive messages with
// pScheduler's own iperf3 field mapping (testdata/pscheduler/README.md).
var parsePSCase = golden.PScheduler(ParsePScheduler) // the message's own run id

func TestPSchedulerThroughputGolden(t *testing.T) {
	golden.Run(t, "testdata/pscheduler", parsePSCase)
}

// Bare results (`pscheduler result --format json`) take src, dst and ts from the command line.
func TestPSchedulerBareResultGolden(t *testing.T) {
	golden.Run(t, "testdata/pscheduler-result", parsePSCase)
}

// A message in the documentation's older form gives the same samples as the current one.
func TestPSchedulerOlderMessageReadsAsTheCurrentOne(t *testing.T) {
	cur, err := parsePSCase(goldenCase(t, "pscheduler/iperf3-tcp-2streams-tbf20mbit"))
	if err != nil {
		t.Fatal(err)
	}
	old, err := parsePSCase(goldenCase(t, "pscheduler/iperf3-older-message-tool-string"))
	if err != nil {
		t.Fatal(err)
	}
	reg := golden.Schemas(t)
	a, b := string(golden.Encode(t, reg, cur)), string(golden.Encode(t, reg, old))
	if a != strings.ReplaceAll(b, `"tool_version":"iperf3"`, `"tool_version":"iperf3 3.12"`) {
		t.Fatalf("current:\n%s\nolder:\n%s", a, b)
	}
}

func TestPSchedulerStartTimesOfOlderReleases(t *testing.T) {
	head := `{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"result":{"succeeded":false},"schedule":{"start":`
	for start, want := range map[string]string{
		`"2016-02-08T17:35:03-05"`:   "ts 1454970903000",
		`"2016-02-08T17:35:03-0500"`: "ts 1454970903000",
		`"2016-02-19T04:35:50"`:      "has no time zone: pass --ts",
	} {
		ss, err := ParsePScheduler([]byte(head+start+"}}"), (golden.Case{}).MustMeta())
		got := fmt.Sprint(err)
		if err == nil {
			got = fmt.Sprintf("ts %d", ss[0].Head().TS)
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s: %s, want %s", start, got, want)
		}
	}
	m := (golden.Case{}).MustMeta()
	m.Start = time.UnixMilli(1455856550000)
	if ss, err := ParsePScheduler([]byte(head+`"2016-02-19T04:35:50"}}`), m); err != nil || ss[0].Head().TS != 1455856550000 {
		t.Fatalf("zoneless with --ts: %v", err)
	}
}

func TestPSchedulerIsBounded(t *testing.T) {
	checkBounded(t, func(in []byte) ([]sample.Sample, error) { return ParsePScheduler(in, importMeta(true)) })
}

func TestPSchedulerLinkFlagsOverrideTheSpec(t *testing.T) {
	c := golden.Cases(t, "testdata/pscheduler")[0]
	c.Args = []string{"--src", "cern-ps1", "--dst", "fnal-ps1", "--probe-id", "tput"}
	ss, err := parsePSCase(c)
	if err != nil {
		t.Fatal(err)
	}
	h := ss[0].Head()
	if h.Src != "cern-ps1" || h.Dst != "fnal-ps1" || h.ProbeID != "tput" {
		t.Fatalf("%+v", h)
	}
}

func TestPSchedulerRefusesOtherTestsAndBadPaths(t *testing.T) {
	for in, want := range map[string]string{
		`{"test":{"type":"trace","spec":{}},"schedule":{"start":"2026-11-21T05:52:38+00:00"},"result":{"succeeded":true}}`:                                                                                          "not a throughput test",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"yesterday"},"result":{"succeeded":true}}`:                                                                              "JSON path schedule.start",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b","parallel":"two"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true}}`:                                                  "JSON path test.spec.parallel",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true,"intervals":[{"summary":{"start":2,"end":1,"throughput-bits":5}}]}}`: "JSON path result.intervals[0].summary: start 2, end 1",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"[::1]"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true}}`:                                                               "pass --dst",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true}}`:                                                                   "result.summary: missing",
	} {
		_, err := ParsePScheduler([]byte(in), (golden.Case{}).MustMeta())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s\n  error %v, want %q", in, err, want)
		}
	}
}

func FuzzPSchedulerThroughput(f *testing.F) {
	// with the link and time of the command line, as a bare result needs them
	args := []string{"--src", "a", "--dst", "b", "--ts", "1795239831000"}
	golden.Fuzz(f, parsePSCase, args, checkErrorBound, "testdata/pscheduler", "testdata/pscheduler-result")
}

func BenchmarkParsePScheduler(b *testing.B) {
	raw, err := os.ReadFile("testdata/pscheduler/iperf3-tcp-2streams-tbf20mbit/input.json")
	if err != nil {
		b.Fatal(err)
	}
	var msg map[string]any
	if err := json.Unmarshal(raw, &msg); err != nil {
		b.Fatal(err)
	}
	res := msg["result"].(map[string]any)
	ivs := res["intervals"].([]any)
	var long []any
	for i := 0; len(long) < 3600; i++ { // one hour of 1 s intervals
		for _, iv := range ivs {
			long = append(long, shift(iv, float64(i*len(ivs))))
		}
	}
	res["intervals"] = long[:3600]
	in, err := json.MarshalIndent(msg, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	m := (golden.Case{}).MustMeta()
	golden.BenchInput(b, in, func(in []byte) ([]sample.Sample, error) { return ParsePScheduler(in, m) })
}

// In a TCP test pScheduler's iperf2 tool puts iperf2's count of writes in sent: not packets.
func TestPSchedulerTCPSentIsNotPackets(t *testing.T) {
	in := `{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true,"intervals":[],"summary":{"streams":[],"summary":{"start":0,"end":10,"throughput-bits":1e9,"sent":85250,"lost":null,"retransmits":10.0}}}}`
	ss, err := ParsePScheduler([]byte(in), (golden.Case{}).MustMeta())
	if err != nil {
		t.Fatal(err)
	}
	rec := ss[0].(*sample.Throughput)
	if rec.Packets != nil || rec.LostPackets != nil || rec.Retransmits == nil || *rec.Retransmits != 10 {
		t.Fatalf("%+v", rec)
	}
}

// An interval without a rate ({} from pScheduler's iperf3 tool when iperf3 gave no sum) gives
// no interval record; a summary without one gives a summary that says so.
func TestPSchedulerRowsWithoutARate(t *testing.T) {
	in := `{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true,"intervals":[{"streams":[],"summary":{}},{"streams":[]}],"summary":{"streams":[]}}}`
	ss, err := ParsePScheduler([]byte(in), (golden.Case{}).MustMeta())
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckAll(t, ss)
	if len(ss) != 1 || ss[0].(*sample.Throughput).Error == nil {
		t.Fatalf("%d samples, %+v", len(ss), ss[0])
	}
}
