package config

import (
	_ "embed"
	"strings"

	"longhaul/probes/probe"
)

//go:embed sample.yaml
var sampleConfig string

// SampleConfig is the agent's part of the sample config (sample.yaml): every field with its
// default, commented, the required ones set, up to the `probes:` key.
func SampleConfig() string { return sampleConfig }

// Sample is the whole sample config, what `longhaul-probe config sample` prints: the agent's
// part, then the sample entry of every registered kind (probe.SampleConfig), in kind order.
// With the real kinds registered it loads and builds as it is.
func Sample() string {
	var b strings.Builder
	b.WriteString(sampleConfig)
	for _, kind := range probe.Kinds() {
		if s := probe.SampleConfig(kind); s != "" {
			b.WriteString("\n")
			b.WriteString(s)
		}
	}
	return b.String()
}
