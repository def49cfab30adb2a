package throughput

import (
	"testing"

	"longhaul/collectors/probes/probekit/golden"
	"longhaul/collectors/sample"
)

func parseIperf2Case(c golden.Case) ([]sample.Sample, error) {
	m, err := c.Meta("iperf2")
	if err != nil {
		return nil, err
	}
	return ParseIperf2(c.Input, m)
}

func TestIperf2Golden(t *testing.T) {
	golden.Run(t, "testdata/iperf2", parseIperf2Case)
}

func FuzzIperf2(f *testing.F) {
	golden.Seeds(f, "testdata/iperf2")
	f.Fuzz(func(t *testing.T, in []byte) {
		c := golden.Case{Input: in, Args: []string{"--src", "a", "--dst", "b", "--ts", "1325746800000"}}
		ss, err := parseIperf2Case(c)
		if err != nil {
			return
		}
		golden.CheckAll(t, ss)
	})
}
