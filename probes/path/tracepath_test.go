package path

import (
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
	"longhaul/probes/probekit/golden"
)

var parseTracepathCase = golden.Tool("tracepath", func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
	return ParseTracepath(in, m, Requested{})
})

func TestTracepathGolden(t *testing.T) {
	golden.Run(t, "testdata/tracepath", parseTracepathCase)
}

func tracepath(in []byte) (*sample.Path, error) {
	return golden.First[*sample.Path](parseTracepathCase, in)
}

func TestTracepathGroupsProbesByTTLAndTakesReachedFromTheOutput(t *testing.T) {
	p, err := tracepath([]byte(" 1?: [LOCALHOST]   pmtu 1500\n 1:  10.0.0.1   0.5ms\n 1:  no reply\n 2:  ???   0.9ms reached\n     Resume: pmtu 1500 hops 2 back 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Hops) != 2 || len(p.Hops[0].Probes) != 2 || p.Hops[0].Probes[1].Addr != nil || *p.Hops[1].Probes[0].RTTMs != 0.9 || !p.Reached || *p.Queries != 2 {
		t.Fatalf("%+v", p)
	}
}

func TestTracepathPutsALateReplyOnItsOwnHop(t *testing.T) {
	// tracepath prints a reply with its probe's TTL when it comes, after higher TTLs
	p, err := tracepath([]byte(" 1:  10.0.0.1  0.5ms\n 2:  no reply\n 4:  no reply\n 2:  10.0.0.2  3000.1ms\n 3:  gw.example.net  3001.0ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Hops) != 4 || p.Hops[1].TTL != 2 || len(p.Hops[1].Probes) != 2 || *p.Hops[1].Probes[1].Addr != "10.0.0.2" ||
		p.Hops[2].TTL != 3 || *p.Hops[2].Probes[0].Name != "gw.example.net" || p.Hops[2].Probes[0].Addr != nil || p.Hops[3].TTL != 4 {
		t.Fatalf("%+v", p.Hops)
	}
}

func TestTracepathErrorsNameLineAndColumn(t *testing.T) {
	for in, want := range map[string]string{
		" 1:  10.0.0.1  0.5ms bogus\n":      `line 1: not part of a tracepath hop (col 22: "bogus")`,
		" 1:  gw.example.net bogus 0.5ms\n": `line 1: neither an address, "no reply" nor "???" (col 6: "gw.example.net`,
		"hello\n":                           `line 1: not a line of tracepath output (col 1: "hello")`,
		"\n":                                "nothing to import",
	} {
		_, err := tracepath([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestTracepathStaysWithinTimeMemoryAndErrorBounds(t *testing.T) {
	// Resume lines are read and skipped to the end, where the garbage is refused.
	golden.TextBounds(t, parseTracepathCase, "     Resume: pmtu 1500 hops 2 back 2\n")
}

func FuzzTracepath(f *testing.F) {
	golden.Fuzz(f, parseTracepathCase, golden.ImportArgs, golden.ErrorBound, "testdata/tracepath")
}

func BenchmarkParseTracepath(b *testing.B) {
	golden.Bench(b, parseTracepathCase, "testdata/tracepath")
}
