package path

import (
	"testing"

	"longhaul/collectors/probes/probekit/golden"
	"longhaul/collectors/sample"
)

func parseTracerouteCase(c golden.Case) ([]sample.Sample, error) {
	m, err := c.Meta("traceroute")
	if err != nil {
		return nil, err
	}
	return ParseTraceroute(c.Input, m, Requested{})
}

func TestTracerouteGolden(t *testing.T) {
	golden.Run(t, "testdata/traceroute", parseTracerouteCase)
}

func FuzzTraceroute(f *testing.F) {
	golden.Seeds(f, "testdata/traceroute")
	f.Fuzz(func(t *testing.T, in []byte) {
		c := golden.Case{Input: in, Args: []string{"--src", "a", "--dst", "b", "--ts", "1325746800000"}}
		ss, err := parseTracerouteCase(c)
		if err != nil {
			return
		}
		golden.CheckAll(t, ss)
	})
}
