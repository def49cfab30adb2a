package path

import (
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
	"longhaul/probes/probekit/golden"
)

var parseTracerouteCase = golden.Tool("traceroute", func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
	return ParseTraceroute(in, m, Requested{})
})

func TestTracerouteGolden(t *testing.T) {
	golden.Run(t, "testdata/traceroute", parseTracerouteCase)
}

func FuzzTraceroute(f *testing.F) {
	golden.Fuzz(f, parseTracerouteCase, golden.ImportArgs, golden.ErrorBound, "testdata/traceroute")
}

func BenchmarkParseTraceroute(b *testing.B) {
	golden.Bench(b, parseTracerouteCase, "testdata/traceroute")
}

func traceroute(in []byte) (*sample.Path, error) {
	return golden.First[*sample.Path](parseTracerouteCase, in)
}

func TestTracerouteStaysWithinTimeMemoryAndErrorBounds(t *testing.T) {
	// Warnings are read and skipped to the end, where the garbage is refused.
	golden.TextBounds(t, parseTracerouteCase, "traceroute: Warning: x has multiple addresses; using 10.0.0.1\n")
}

func TestTracerouteKeepsBSDAndLinuxASNumbersWithTheirAddress(t *testing.T) {
	p, err := traceroute([]byte("traceroute to 10.0.0.9 (10.0.0.9), 64 hops max, 52 byte packets\n" +
		" 1  [AS0] 10.0.0.1  1.0 ms  [AS65001] gw (10.0.0.2)  2.0 ms\n" +
		" 2  r2 (10.0.0.3) [AS65002]  3.0 ms  3.1 ms\n" +
		" 3  [*] 10.0.0.9  4.0 ms !F-1400\n"))
	if err != nil {
		t.Fatal(err)
	}
	asn := func(h, i int) any {
		if a := p.Hops[h].Probes[i].ASN; a != nil {
			return *a
		}
		return nil
	}
	if asn(0, 0) != int64(0) || asn(0, 1) != int64(65001) || asn(1, 0) != int64(65002) || asn(1, 1) != int64(65002) || asn(2, 0) != nil {
		t.Errorf("ASNs %v %v %v %v %v", asn(0, 0), asn(0, 1), asn(1, 0), asn(1, 1), asn(2, 0))
	}
	if a := p.Hops[2].Probes[0].Annotation; a == nil || *a != "!F" || !p.Reached {
		t.Errorf("!F-1400: %v, reached %v", a, p.Reached)
	}
}

func TestTracerouteWarningIsNotAFailure(t *testing.T) {
	p, err := traceroute([]byte("traceroute: Warning: example.org has multiple addresses; using 10.0.0.9\ntraceroute to example.org (10.0.0.9), 64 hops max, 40 byte packets\n 1  10.0.0.9  1.0 ms\n"))
	if err != nil || p.Error != nil || !p.Reached {
		t.Fatalf("%+v %v", p, err)
	}
}

func TestTracerouteErrorsNameLineAndColumn(t *testing.T) {
	for in, want := range map[string]string{
		"traceroute to 10.0.0.1 (10.0.0.1), 30 hops max\n 1  10.0.0.1  0.1 ms X!\n":                        `line 2: neither an address, an RTT, '*' nor an annotation (col 22: "X!")`,
		"traceroute to 10.0.0.1 (10.0.0.1), 300 hops max\n":                                                `line 1: hops max is out of range (col 36: "300 hops max")`,
		"traceroute [(1.2.3.4) -> (5.6.7.8)]\n":                                                            "line 1: a traceroute header of no known traceroute (col 1:",
		"traceroute to 10.0.0.1 (10.0.0.1), 30 hops max\n 1  10.0.0.1\n" + strings.Repeat("0.1 ms\n", 200): "line 130: hop 1 goes on for more than 256 words",
	} {
		_, err := traceroute([]byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestTracerouteAndTracepathSkipTheCommandLineACaptureBeginsWith(t *testing.T) {
	p, err := traceroute([]byte("$ traceroute -n 10.0.0.1\ntraceroute to 10.0.0.1 (10.0.0.1), 30 hops max, 60 byte packets\n 1  10.0.0.1  0.5 ms  0.4 ms  0.4 ms\n"))
	if err != nil || len(p.Hops) != 1 || !p.Reached {
		t.Fatalf("%+v %v", p, err)
	}
	p, err = tracepath([]byte("user@host:~$ tracepath -n 10.0.0.1\n 1:  10.0.0.1  0.5ms reached\n"))
	if err != nil || len(p.Hops) != 1 {
		t.Fatalf("%+v %v", p, err)
	}
	if _, err := traceroute([]byte(" 1  10.0.0.1  0.5 ms\n$ traceroute -n 10.0.0.1\n")); err == nil {
		t.Fatal("a command line after the output is not skipped")
	}
}
