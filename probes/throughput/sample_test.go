package throughput

import (
	"reflect"
	"testing"

	"longhaul/internal/sampletest"
	"longhaul/probes/probe"
)

// The sample is the documentation of the params: it shows every one, and the values it shows
// commented are the defaults the code applies.
func TestSampleShowsEveryParamWithItsDefault(t *testing.T) {
	want := DefaultParams()
	if err := want.Check(); err != nil { // the defaults themselves must pass the params check
		t.Fatal(err)
	}
	sampletest.DecodesToDefaults(t, SampleConfig(), Params{}, DecodeParams, want)
}

func names(tools []probe.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestToolsNameWhatRunsExecute(t *testing.T) {
	argv, _ := Argv(DefaultParams(), "ps1.fnal.gov")
	pr := New(DefaultParams(), nil)
	if argv[0] != Tool || !reflect.DeepEqual(names(pr.Tools()), []string{"iperf3", "ip"}) {
		t.Fatalf("argv %q, tools %q", argv, pr.Tools())
	}
	pr.Params.HostSnapshot = false
	if !reflect.DeepEqual(names(pr.Tools()), []string{"iperf3"}) {
		t.Fatalf("without snapshots: %q", pr.Tools())
	}
}
