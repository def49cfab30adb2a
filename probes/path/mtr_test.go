package path

import (
	"bytes"
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
	"longhaul/probes/probekit/golden"
)

var parseMtrCase = golden.Tool("mtr", func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
	return ParseMtr(in, m, Requested{})
})

func TestMtrGolden(t *testing.T) {
	golden.Run(t, "testdata/mtr", parseMtrCase)
}

func mtr(in []byte) (*sample.Path, error) { return golden.First[*sample.Path](parseMtrCase, in) }

func TestMtrReportReadsTheColumnsTheHostLineNames(t *testing.T) {
	// -o "LSA": loss, sent, average only; -b: name (address).
	p, err := mtr([]byte("HOST: a   Loss%   Snt   Avg\n  1.|-- gw (10.0.0.1)  0.0%  10  1.5\n  2.|-- 10.0.0.9  100.0  10  0.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	h1, h2 := p.Hops[0].Probes[0], p.Hops[1].Probes[0]
	if *h1.Addr != "10.0.0.1" || *h1.Name != "gw" || *h1.RTTMs != 1.5 || h2.Addr != nil || p.Queries != nil {
		t.Fatalf("%+v %+v", h1, h2)
	}
}

func TestMtrErrorsNameWhere(t *testing.T) {
	for in, want := range map[string]string{
		"  1.|-- 10.0.0.1  0.0%  3  0.1  0.1  0.1  0.1  0.0\n":                                         "line 1: not a line of mtr --report before its HOST line",
		"HOST: a  Loss%  Snt  Avg\n  1.|-- 10.0.0.1  0.0%  3\n":                                        "line 2: a hop with 2 values for 3 columns",
		"HOST: a  Loss%  Snt  Avg\n  1.|-- 10.0.0.1  0.0%  3  x\n":                                     `line 2: column Avg: not a figure (col 28: "x")`,
		"HOST: a  Loss%  Snt  Avg\n  2.|-- 10.0.0.1  0.0%  3  1\n  1.|-- 10.0.0.2  0.0%  3  1\n":       "line 3: hop 1 does not follow hop 2",
		`{"report":{"mtr":{"dst":"10.0.0.1"},"hubs":[{"count":"one","host":"10.0.0.1"}]}}`:             "is not a figure",
		`{"report":{"mtr":{"dst":"10.0.0.1"},"hubs":[{"host":"10.0.0.1"}]}}`:                           "JSON path report.hubs[0].count: missing",
		`{"report":{"mtr":{"dst":"10.0.0.1"},"hubs":[{"count":2,"host":"a"},{"count":1,"host":"b"}]}}`: "JSON path report.hubs[1]: hop 1 does not follow hop 2",
		`{"nope":1}`: "JSON path report: missing",
	} {
		_, err := mtr([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestMtrStaysWithinTimeMemoryAndErrorBounds(t *testing.T) {
	// Start lines are read and skipped to the end, where the garbage is refused.
	golden.TextBounds(t, parseMtrCase, "Start: 2026-11-24T01:03:38+0000\n")
	cpu := golden.CPUTime()
	_, err := mtr(append([]byte(`{"report":`), bytes.Repeat([]byte(" "), golden.HugeInput)...))
	if took := golden.CPUTime() - cpu; err == nil || !strings.Contains(err.Error(), "larger than") || took > golden.MaxTime {
		t.Errorf("50 MB of JSON: %v after %v of CPU", err, took)
	}
}

func FuzzMtr(f *testing.F) {
	golden.Fuzz(f, parseMtrCase, golden.ImportArgs, golden.ErrorBound, "testdata/mtr")
}

func BenchmarkParseMtr(b *testing.B) {
	golden.Bench(b, parseMtrCase, "testdata/mtr")
}
