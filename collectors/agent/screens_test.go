package agent

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"

	"longhaul/collectors/schedule"
	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
)

// A throughput probe configured as a screening burst (`screens`) publishes every sample of its
// runs marked with the probe it screens; the screened probe's own samples are not marked.
func TestAScreeningBurstsSamplesNameTheProbeTheyScreen(t *testing.T) {
	out, err := os.ReadFile("../../probes/throughput/testdata/iperf3/tcp-1stream-lo/input.json")
	if err != nil {
		t.Fatal(err)
	}
	exec := func(_ context.Context, argv []string) ([]byte, []byte, error) {
		if argv[0] == "iperf3" {
			return out, nil, nil
		}
		return nil, nil, os.ErrNotExist // ip, sysctl: the host snapshot goes without
	}
	cfg := writeConfig(t, t.TempDir(), "127.0.0.1:1", `  - id: tcp
    kind: throughput
    targets: [bnl-ps1]
    interval: 4h
    jitter: 0s
    params: {duration: 10s, host_snapshot: false}
  - id: tcp-burst
    kind: throughput
    targets: [bnl-ps1]
    interval: 10m
    jitter: 0s
    params: {duration: 2s, host_snapshot: false}
    screens: tcp
`)
	clock := schedule.NewFakeClock(t0)
	mem := newMemKafka()
	a, err := New(cfg, Options{Version: "test", Logger: quiet, Clock: clock, Rand: rand.New(rand.NewPCG(1, 2)),
		Producer: mem, Exec: exec})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- a.Run(ctx) }()
	runs := func(probe string) int { return int(a.Health().Probes[probe].Runs) }
	for i := 0; i < 50 && (runs("tcp") == 0 || runs("tcp-burst") < 2); i++ {
		advanceToNextEvent(t, clock, a.sched)
	}
	waitFor(t, mem.changed, "the runs' samples to be acknowledged", func() bool {
		return a.Health().Spool.DepthSamples == 0 && len(mem.records()) > 0
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range mem.records() {
		if r.Topic != contract.OwnTopic(sample.TopicThroughput, "agent-cern-ps1") {
			t.Fatalf("a record on %s: %s", r.Topic, r.Value)
		}
		var s sample.Throughput
		if err := json.Unmarshal(r.Value, &s); err != nil {
			t.Fatal(err)
		}
		screens := ""
		if s.Screens != nil {
			screens = *s.Screens
		}
		want := map[string]string{"tcp": "", "tcp-burst": "tcp"}[s.ProbeID]
		if screens != want {
			t.Errorf("%s %s: screens %q, want %q", s.ProbeID, s.Record, screens, want)
		}
		seen[s.ProbeID]++
	}
	if seen["tcp"] == 0 || seen["tcp-burst"] == 0 {
		t.Fatalf("samples per probe: %v", seen)
	}
}
