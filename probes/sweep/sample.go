package sweep

import _ "embed"

//go:embed sample.yaml
var sampleConfig string

// SampleConfig is the kind's entry of the sample config (sample.yaml): every param with its
// default, commented. Registered with the kind; `longhaul-probe config sample` prints it.
func SampleConfig() string { return sampleConfig }
