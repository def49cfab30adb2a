package path

import (
	"reflect"
	"testing"

	"longhaul/collectors/internal/sampletest"
	"longhaul/collectors/probe"
)

// The sample is the documentation of the params: it shows every one, and the values it shows
// commented are the defaults the code applies.
func TestSampleShowsEveryParamWithItsDefault(t *testing.T) {
	sampletest.DecodesToDefaults(t, SampleConfig(), Params{}, DecodeParams, DefaultParams())
}

func TestToolsNameWhatRunsExecute(t *testing.T) {
	argv, _ := Argv(DefaultParams(), "ps1.fnal.gov")
	if pr := (&Probe{Params: DefaultParams()}); argv[0] != Tool || !reflect.DeepEqual(pr.Tools(), []probe.Tool{{Name: "traceroute", Without: "every run fails with tool_missing"}}) {
		t.Fatalf("argv %q, tools %q", argv, pr.Tools())
	}
}
