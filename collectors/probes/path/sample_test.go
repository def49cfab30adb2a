package path

import (
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/collectors/internal/sampletest"
	"longhaul/collectors/probe"
)

// The sample is the documentation of the params: it shows every one, and the values it shows
// commented are the defaults the code applies.
func TestSampleShowsEveryParamWithItsDefault(t *testing.T) {
	written, uncommented := sampletest.Params(t, SampleConfig())
	sampletest.ShowsEveryParam(t, uncommented, Params{})
	for name, n := range map[string]*yaml.Node{"as written": written, "uncommented": uncommented} {
		got, err := DecodeParams(n)
		if err != nil || !reflect.DeepEqual(got, DefaultParams()) {
			t.Errorf("sample %s: %+v, %v; defaults %+v", name, got, err, DefaultParams())
		}
	}
}

func TestToolsNameWhatRunsExecute(t *testing.T) {
	argv, _ := Argv(DefaultParams(), "ps1.fnal.gov")
	if pr := (&Probe{Params: DefaultParams()}); argv[0] != Tool || !reflect.DeepEqual(pr.Tools(), []probe.Tool{{Name: "traceroute", Without: "every run fails with tool_missing"}}) {
		t.Fatalf("argv %q, tools %q", argv, pr.Tools())
	}
}
