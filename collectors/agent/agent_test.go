package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/collectors/config"
	"longhaul/collectors/schedule"
	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
)

var (
	quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
	t0    = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
)

// memKafka is an in-memory producer for the agent's unit tests: it acknowledges at once.
type memKafka struct {
	mu      sync.Mutex
	recs    []*kgo.Record
	changed chan struct{}
}

func newMemKafka() *memKafka { return &memKafka{changed: make(chan struct{}, 1)} }

func (m *memKafka) Produce(_ context.Context, r *kgo.Record, promise func(*kgo.Record, error)) {
	m.mu.Lock()
	m.recs = append(m.recs, r)
	m.mu.Unlock()
	promise(r, nil)
	select {
	case m.changed <- struct{}{}:
	default:
	}
}
func (m *memKafka) Flush(context.Context) error { return nil }
func (m *memKafka) Ping(context.Context) error  { return nil }

func (m *memKafka) records() []*kgo.Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*kgo.Record(nil), m.recs...)
}

// knownPassword is the agent's password in these tests: nothing the agent prints may show it.
const knownPassword = "kn0wn-Passw0rd-never-printed"

// writeConfig writes a config with the given probes section into dir and loads it.
func writeConfig(t *testing.T, dir, brokers, probes string) *config.Config {
	t.Helper()
	pw := filepath.Join(dir, "kafka.password")
	if err := os.WriteFile(pw, []byte(knownPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`src: cern-ps1
kafka:
  bootstrap: [%s]
  max_in_flight: 100
  sasl: {user: agent-cern-ps1, password_file: %s}
spool:
  dir: %s
  max_bytes: 4MiB
  segment_bytes: 256KiB
health:
  listen: "off"
schemas_dir: ../../ingest/schemas
targets:
  - {name: fnal-ps1, address: ps1.fnal.gov, shared: true}
  - {name: bnl-ps1, address: 192.0.2.7}
probes:
%s`, brokers, pw, filepath.Join(dir, "spool"), probes)
	return loadConfig(t, filepath.Join(dir, "longhaul-probe.yaml"), body)
}

// loadConfig writes body to the config file path and loads it.
func loadConfig(t *testing.T, path, body string) *config.Config {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestAgentPublishesEveryRunKeyedByLinkOnItsTopicAndReportsHealth(t *testing.T) {
	emitted.reset()
	cfg := writeConfig(t, t.TempDir(), "127.0.0.1:1", `  - id: tput
    kind: synthetic
    interval: 1m
    jitter: 0s
    params: {intervals: 4, exclusive: true}
`)
	clock := schedule.NewFakeClock(t0)
	mem := newMemKafka()
	a, err := New(cfg, Options{Version: "test", Logger: quiet, Clock: clock, Rand: rand.New(rand.NewPCG(1, 2)), Producer: mem})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- a.Run(ctx) }()
	for i := 0; i < 10; i++ { // ten slots: each target runs about five times
		advanceToNextEvent(t, clock, a.sched)
	}
	waitFor(t, mem.changed, "every emitted sample to be acknowledged", func() bool {
		return len(emitted.snapshot()) > 0 && a.Health().Spool.DepthSamples == 0 && len(mem.records()) == len(emitted.snapshot())
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	reg, _ := schema.Load("../../ingest/schemas")
	want := emitted.snapshot()
	for _, r := range mem.records() {
		var s sample.Throughput
		if err := json.Unmarshal(r.Value, &s); err != nil {
			t.Fatal(err)
		}
		if r.Topic != sample.TopicThroughput+".agent-cern-ps1" || string(r.Key) != "cern-ps1|"+s.Dst {
			t.Errorf("record on %s keyed %q", r.Topic, r.Key)
		}
		if err := reg.Validate(r.Value); err != nil {
			t.Errorf("published sample does not validate: %v", err)
		}
		delete(want, sampleID(&s))
	}
	if len(want) != 0 {
		t.Fatalf("%d emitted samples never published", len(want))
	}

	h := a.Health()
	p := h.Probes["tput"]
	if p.Runs < 8 || p.LastSuccess == nil || p.Targets != 2 || p.Kind != "synthetic" {
		t.Fatalf("probe health: %+v", p)
	}
	if h.Samples.Spooled != uint64(len(mem.records())) || h.Kafka.Acked != h.Samples.Spooled || h.Spool.DroppedTotal != 0 {
		t.Fatalf("health: %+v", h)
	}
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/health", nil))
	var served Health
	if err := json.Unmarshal(rec.Body.Bytes(), &served); err != nil || served.Probes["tput"].Runs != p.Runs {
		t.Fatalf("GET /health: %v\n%s", err, rec.Body)
	}
	rec = httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, line := range []string{
		"longhaul_probe_spool_samples 0",
		fmt.Sprintf(`longhaul_probe_runs_total{probe_id="tput",kind="synthetic"} %d`, p.Runs),
		`longhaul_probe_spool_dropped_total{class="interval"} 0`,
	} {
		if !strings.Contains(rec.Body.String(), line) {
			t.Errorf("/metrics lacks %q:\n%s", line, rec.Body)
		}
	}
}

// advanceToNextEvent waits until the scheduler has seen every run end and waits on its next
// timer, then moves the clock to it.
func advanceToNextEvent(t *testing.T, clock *schedule.FakeClock, s *schedule.Scheduler) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	waitFor(t, tick.C, "runs in progress to end", func() bool { return s.Running() == 0 })
	if !clock.WaitTimers(1, 5*time.Second) {
		t.Fatal("scheduler not waiting on a timer")
	}
	next, _ := clock.NextTimer()
	clock.Advance(next.Sub(clock.Now()))
	if !clock.WaitTimers(1, 5*time.Second) { // the loop has taken the step and started its runs
		t.Fatal("scheduler did not come back to its timer")
	}
}

// waitFor re-checks cond whenever changed is signalled, for at most 10 s.
func waitFor[T any](t *testing.T, changed <-chan T, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
