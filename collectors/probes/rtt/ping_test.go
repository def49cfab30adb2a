package rtt

import (
	"testing"

	"longhaul/collectors/probes/probekit/golden"
	"longhaul/collectors/sample"
)

func parsePingCase(c golden.Case) ([]sample.Sample, error) {
	m, err := c.Meta("ping")
	if err != nil {
		return nil, err
	}
	return ParsePing(c.Input, m, Requested{})
}

func TestPingGolden(t *testing.T) {
	golden.Run(t, "testdata/ping", parsePingCase)
}

func FuzzPing(f *testing.F) {
	golden.Seeds(f, "testdata/ping")
	f.Fuzz(func(t *testing.T, in []byte) {
		c := golden.Case{Input: in, Args: []string{"--src", "a", "--dst", "b", "--ts", "1325746800000"}}
		ss, err := parsePingCase(c)
		if err != nil {
			return
		}
		golden.CheckAll(t, ss)
	})
}
