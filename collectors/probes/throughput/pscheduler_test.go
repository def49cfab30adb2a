package throughput

import (
	"strings"
	"testing"

	"longhaul/collectors/probes/probekit/golden"
	"longhaul/collectors/sample"
)

// The pScheduler cases are real iperf3 captures wrapped into archive messages with
// pScheduler's own iperf3 field mapping (testdata/pscheduler/README.md).
func parsePSCase(c golden.Case) ([]sample.Sample, error) {
	m, err := c.Meta("pscheduler")
	if err != nil {
		return nil, err
	}
	m.RunID = "" // the message's own run id
	return ParsePScheduler(c.Input, m)
}

func TestPSchedulerThroughputGolden(t *testing.T) {
	golden.Run(t, "testdata/pscheduler", parsePSCase)
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
		`{"test":{"type":"trace","spec":{}},"schedule":{"start":"2026-11-21T05:52:38+00:00"},"result":{"succeeded":true}}`:                                                     "not a throughput test",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"yesterday"},"result":{"succeeded":true}}`:                                         "JSON path schedule.start",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b","parallel":"two"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true}}`:             "JSON path test.spec.parallel",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true,"intervals":[{"summary":{}}]}}`: "JSON path result.intervals[0].summary.throughput-bits",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"[::1]"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true}}`:                          "pass --dst",
		`{"test":{"type":"throughput","spec":{"source":"a","dest":"b"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true}}`:                              "result.summary: missing",
	} {
		_, err := ParsePScheduler([]byte(in), (golden.Case{}).MustMeta())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s\n  error %v, want %q", in, err, want)
		}
	}
}

func FuzzPSchedulerThroughput(f *testing.F) {
	golden.Seeds(f, "testdata/pscheduler")
	f.Fuzz(func(t *testing.T, in []byte) {
		ss, err := parsePSCase(golden.Case{Input: in})
		if err != nil {
			return
		}
		golden.CheckAll(t, ss)
	})
}
