package throughput

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
	want := DefaultParams()
	if err := want.Check(); err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]any{"as written": written, "uncommented": uncommented} {
		got, err := DecodeParams(n.(*yaml.Node))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("sample %s: %+v, %v; defaults %+v", name, got, err, want)
		}
	}
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
