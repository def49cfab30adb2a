package throughput

import (
	"testing"

	"longhaul/collectors/probes/probekit/golden"
	"longhaul/collectors/sample"
)

func parseIperf3Case(c golden.Case) ([]sample.Sample, error) {
	m, err := c.Meta("iperf3")
	if err != nil {
		return nil, err
	}
	return ParseIperf3(c.Input, m, Requested{})
}

func TestIperf3Golden(t *testing.T) {
	golden.Run(t, "testdata/iperf3", parseIperf3Case)
}

func FuzzIperf3(f *testing.F) {
	golden.Seeds(f, "testdata/iperf3")
	f.Fuzz(func(t *testing.T, in []byte) {
		c := golden.Case{Input: in, Args: []string{"--src", "a", "--dst", "b", "--ts", "1795239644000"}}
		ss, err := parseIperf3Case(c)
		if err != nil {
			return
		}
		golden.CheckAll(t, ss)
	})
}
