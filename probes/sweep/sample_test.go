package sweep

import (
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/internal/sampletest"
	"longhaul/probes/host"
	"longhaul/probes/probekit"
	"longhaul/probes/throughput"
)

// The sample is the documentation of the params: it shows every one, sets the required
// windows, and the values it shows commented are the defaults the code applies.
func TestSampleShowsEveryParamWithItsDefault(t *testing.T) {
	written, uncommented := sampletest.Params(t, SampleConfig())
	sampletest.ShowsEveryParam(t, uncommented, Params{})
	base := throughput.DefaultParams()
	base.HostSnapshot = false
	def := DefaultParams()
	for name, n := range map[string]*yaml.Node{"as written": written, "uncommented": uncommented} {
		got, err := DecodeParams(n)
		if err != nil || !reflect.DeepEqual(got.Streams, def.Streams) || got.Gap != def.Gap || !reflect.DeepEqual(got.base, base) {
			t.Errorf("sample %s: %+v, %v; defaults %+v, base %+v", name, got, err, def, base)
		}
		if want := []probekit.Size{64 << 10, 256 << 10, 1 << 20, 4 << 20}; !reflect.DeepEqual(got.Windows, want) {
			t.Errorf("sample %s: windows %v", name, got.Windows)
		}
	}
}

func TestToolsAreTheCellsAndTheSnapshots(t *testing.T) {
	pr := &Probe{Snap: host.NewSnapshotter(nil)}
	if len(pr.Tools()) != 2 || pr.Tools()[0].Name != "iperf3" || pr.Tools()[1].Name != "ip" {
		t.Fatalf("tools %q", pr.Tools())
	}
}
