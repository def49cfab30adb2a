package main

import (
	"os"
	"strings"
	"testing"

	"longhaul/ingest/contract"
)

func TestDescribeEventReadsLikeASentence(t *testing.T) {
	raw, err := os.ReadFile("../../../ingest/schemas/examples/event.v4/valid/throughput-collapse.json")
	if err != nil {
		t.Fatal(err)
	}
	got := describe(contract.TopicEvents, raw)
	for _, want := range []string{"CRITICAL", "throughput_collapse", "perfsonar.ihep.ac.cn → cclhcone01.in2p3.fr", "557 Mbit/s"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}

func TestDescribeStatsShowsOnlyMinuteWindowsInMbits(t *testing.T) {
	raw, _ := os.ReadFile("../../../ingest/schemas/examples/link_stats.v2/valid/tcp-1m.json")
	got := describe(contract.TopicStats, raw)
	if !strings.Contains(got, "throughput=2.8Mbit/s") || !strings.Contains(got, "rtt=283.3ms") {
		t.Errorf("got %q", got)
	}
	hour, _ := os.ReadFile("../../../ingest/schemas/examples/link_stats.v2/valid/path-1h.json")
	if got := describe(contract.TopicStats, hour); got != "" {
		t.Errorf("1h window printed: %q", got)
	}
}

func TestDispatchUnknownCommandFails(t *testing.T) {
	var out, errOut strings.Builder
	if code := dispatch([]string{"nope"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown command") {
		t.Fatalf("code %d, stderr %q", code, errOut.String())
	}
	out.Reset()
	if code := dispatch([]string{"--help"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "setup") {
		t.Fatalf("help: code %d, %q", code, out.String())
	}
}
