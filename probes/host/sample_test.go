package host

import (
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/internal/sampletest"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

// The sample is the documentation of the params: it shows every one, and the values it shows
// commented are the defaults the code applies.
func TestSampleShowsEveryParamWithItsDefault(t *testing.T) {
	written, uncommented := sampletest.Params(t, SampleConfig())
	sampletest.ShowsEveryParam(t, uncommented, Params{})
	for name, n := range map[string]*yaml.Node{"as written": written, "uncommented": uncommented} {
		got := DefaultParams()
		got.Route = false // the sample must set it back
		if name == "as written" {
			got = DefaultParams()
		}
		if err := probekit.DecodeParams(n, &got); err != nil || got != DefaultParams() {
			t.Errorf("sample %s: %+v, %v; defaults %+v", name, got, err, DefaultParams())
		}
	}
}

func TestToolsNameWhatRunsExecute(t *testing.T) {
	s := NewSnapshotter(nil)
	if RouteArgv("192.0.2.1")[0] != RouteTool || !reflect.DeepEqual((&Probe{Snap: s}).Tools(), []probe.Tool{{Name: "ip", Without: "host snapshots carry no interface or MTU"}}) {
		t.Fatalf("tools %q", (&Probe{Snap: s}).Tools())
	}
	s.Route = false
	if tools := (&Probe{Snap: s}).Tools(); len(tools) != 0 {
		t.Fatalf("without the route: %q", tools)
	}
}
