package path

import (
	"testing"

	"longhaul/internal/sampletest"
)

// The sample is the documentation of the params: it shows every one, and the values it shows
// commented are the defaults the code applies.
func TestSampleShowsEveryParamWithItsDefault(t *testing.T) {
	sampletest.DecodesToDefaults(t, SampleConfig(), Params{}, DecodeParams, DefaultParams())
}

func TestToolsNameWhatRunsExecute(t *testing.T) {
	argv, _ := Argv(DefaultParams(), "ps1.fnal.gov")
	sampletest.OneTool(t, argv, New(DefaultParams(), nil).Tools(), "traceroute")
}
