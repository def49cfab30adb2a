package psbridge

import (
	"testing"

	"longhaul/ingest/sample"
)

func rtt(src, dst string) sample.Sample {
	return &sample.RTT{Envelope: sample.Envelope{Schema: sample.SchemaRTT, Src: src, Dst: dst}}
}

func TestAHostReportsTheTestsItTakesPartInOnly(t *testing.T) {
	h := Hosts{"pscheduler-lyon": {"perfsonar.in2p3.fr"}, "http": {"a.example.org", "b.example.org"}}
	for _, ok := range []struct {
		who      string
		src, dst string
	}{
		{"pscheduler-lyon", "perfsonar.in2p3.fr", "far.example.org"}, // its own test, as the source
		{"pscheduler-lyon", "far.example.org", "perfsonar.in2p3.fr"}, // as the destination
		{"http", "b.example.org", "x"},
	} {
		if r := h.Refusal(ok.who, []sample.Sample{rtt(ok.src, ok.dst)}); r != "" {
			t.Errorf("%+v refused: %s", ok, r)
		}
	}
	r := h.Refusal("pscheduler-lyon", []sample.Sample{rtt("perfsonar.in2p3.fr", "x"), rtt("cern.ch", "fnal.gov")})
	if want := "pscheduler_host: a result of cern.ch→fnal.gov from pscheduler-lyon, which may report for perfsonar.in2p3.fr only"; r != want {
		t.Fatalf("another host's test: %q, want %q", r, want)
	}
	if r := h.Refusal("pscheduler", []sample.Sample{rtt("perfsonar.in2p3.fr", "x")}); r != "pscheduler_host: pscheduler has no host list on this bridge (pscheduler_bridge.hosts)" {
		t.Fatalf("an identity without a list: %q", r)
	}
	if r := Hosts(nil).Refusal("anyone", []sample.Sample{rtt("a", "b")}); r != "" {
		t.Fatalf("no lists at all: %q", r)
	}
}
