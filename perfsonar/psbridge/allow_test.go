package psbridge

import (
	"testing"

	"longhaul/ingest/sample"
)

func rtt(src, dst string) sample.Sample {
	return &sample.RTT{Envelope: sample.Envelope{Schema: sample.SchemaRTT, Src: src, Dst: dst}}
}

// both ends run it: a throughput test (Sides from participants)
func both(samples ...sample.Sample) Converted {
	return Converted{Samples: samples, Sides: Sides{Source: true, Dest: true}}
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
		if r := h.Refusal(ok.who, both(rtt(ok.src, ok.dst))); r != "" {
			t.Errorf("%+v refused: %s", ok, r)
		}
	}
	r := h.Refusal("pscheduler-lyon", both(rtt("perfsonar.in2p3.fr", "x"), rtt("cern.ch", "fnal.gov")))
	if want := "pscheduler_host: a result of cern.ch→fnal.gov run by its source and destination, from pscheduler-lyon, which may report for perfsonar.in2p3.fr only"; r != want {
		t.Fatalf("another host's test: %q, want %q", r, want)
	}
	if r := h.Refusal("pscheduler", both(rtt("perfsonar.in2p3.fr", "x"))); r != "pscheduler_host: pscheduler has no host list on this bridge (pscheduler_bridge.hosts)" {
		t.Fatalf("an identity without a list: %q", r)
	}
	if r := Hosts(nil).Refusal("anyone", both(rtt("a", "b"))); r != "" {
		t.Fatalf("no lists at all: %q", r)
	}
}

// A latency test runs at its source only (unless flipped), so its destination's pScheduler has
// no run to archive: a result it posts is one it made up, for the source's name.
func TestAHostReportsOnlyAsAnEndThatRunsTheTest(t *testing.T) {
	h := Hosts{"pscheduler-lyon": {"perfsonar.in2p3.fr"}}
	into := rtt("cern.ch", "perfsonar.in2p3.fr")
	if r := h.Refusal("pscheduler-lyon", Converted{Samples: []sample.Sample{into}, Sides: Sides{Source: true}}); r != "pscheduler_host: a result of cern.ch→perfsonar.in2p3.fr run by its source, from pscheduler-lyon, which may report for perfsonar.in2p3.fr only" {
		t.Fatalf("a latency test into its host: %q", r)
	}
	if r := h.Refusal("pscheduler-lyon", Converted{Samples: []sample.Sample{into}, Sides: Sides{Dest: true}}); r != "" {
		t.Fatalf("a flipped latency test, run at its destination: %q", r)
	}
	out := rtt("perfsonar.in2p3.fr", "cern.ch")
	if r := h.Refusal("pscheduler-lyon", Converted{Samples: []sample.Sample{out}, Sides: Sides{Dest: true}}); r == "" {
		t.Fatal("a flipped test from its host, which the destination runs, was accepted")
	}
}
