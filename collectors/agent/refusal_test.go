package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/collectors/publish"
	"longhaul/collectors/schedule"
	"longhaul/internal/logtest"
)

// refusingKafka refuses the agent's credential until fixed, as a broker with a wrong password
// does through franz-go: Ping fails with SASL_AUTHENTICATION_FAILED, Produce waits.
type refusingKafka struct {
	mu      sync.Mutex
	fixed   bool
	held    []func()
	acked   int
	changed chan struct{}
}

func (k *refusingKafka) Produce(_ context.Context, r *kgo.Record, promise func(*kgo.Record, error)) {
	k.mu.Lock()
	if !k.fixed {
		k.held = append(k.held, func() { promise(r, nil) })
		k.mu.Unlock()
		return
	}
	k.acked++
	k.mu.Unlock()
	promise(r, nil)
	k.signal()
}

func (k *refusingKafka) signal() {
	select {
	case k.changed <- struct{}{}:
	default:
	}
}

func (k *refusingKafka) Flush(context.Context) error { return nil }

func (k *refusingKafka) Ping(context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.fixed {
		return fmt.Errorf("unable to initialize sasl: %w", kerr.SaslAuthenticationFailed)
	}
	return nil
}

func (k *refusingKafka) fix() {
	k.mu.Lock()
	k.fixed = true
	held := k.held
	k.held = nil
	k.acked += len(held)
	k.mu.Unlock()
	for _, ack := range held {
		ack()
	}
	k.signal()
}

// get serves path from the agent's handler.
func get(a *Agent, path string) string {
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Body.String()
}

// Refused: the agent says so once (log, /health, /metrics) with the reason and the user,
// keeps spooling every run, and drains once Kafka takes it; the password shows nowhere.
func TestARefusedAgentSaysSoOnceKeepsSpoolingAndDrainsWhenAccepted(t *testing.T) {
	emitted.reset()
	cfg := writeConfig(t, t.TempDir(), "127.0.0.1:1", `  - id: tput
    kind: synthetic
    interval: 1m
    jitter: 0s
    params: {intervals: 4, exclusive: true}
`)
	clock := schedule.NewFakeClock(t0)
	k := &refusingKafka{changed: make(chan struct{}, 1)}
	var logs logtest.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	a, err := New(cfg, Options{Version: "test", Logger: logger, Clock: clock, Rand: rand.New(rand.NewPCG(1, 2)), Producer: k,
		Publisher: publish.PublisherOptions{PingEvery: 5 * time.Millisecond, RecheckMin: 10 * time.Millisecond, RecheckMax: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- a.Run(ctx) }()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	waitFor(t, tick.C, "the refusal", func() bool { return a.Health().Kafka.State == KafkaRefused })
	for i := 0; i < 6; i++ {
		advanceToNextEvent(t, clock, a.sched)
	}
	waitFor(t, tick.C, "the runs to be spooled", func() bool { return a.Health().Samples.Spooled == uint64(len(emitted.snapshot())) })

	h := a.Health()
	if h.Status != "refused" || h.Kafka.Connected || h.Kafka.User != "agent-cern-ps1" || h.Kafka.Security != "sasl_ssl" ||
		h.Kafka.Reason != "authentication refused: wrong SCRAM user or password (or the user was revoked)" ||
		h.Kafka.RefusedSince == nil || h.Kafka.NextCheck == nil || h.Kafka.Acked != 0 || h.Spool.DepthSamples == 0 ||
		h.Spool.DepthSamples != int(h.Samples.Spooled) {
		t.Fatalf("health while refused: %+v", h)
	}
	var served map[string]any
	body := get(a, "/health")
	if err := json.Unmarshal([]byte(body), &served); err != nil {
		t.Fatal(err)
	}
	if kafka := served["kafka"].(map[string]any); served["status"] != "refused" || kafka["state"] != "refused" || kafka["user"] != "agent-cern-ps1" {
		t.Errorf("GET /health:\n%s", body)
	}
	metrics := get(a, "/metrics")
	if !strings.Contains(metrics, "longhaul_probe_kafka_refused 1\n") {
		t.Errorf("/metrics lacks longhaul_probe_kafka_refused 1:\n%s", metrics)
	}

	var status bytes.Buffer
	WriteStatus(&status, a.Health(), time.Now())
	if !strings.Contains(status.String(), "kafka:   REFUSED since ") || !strings.Contains(status.String(), "user agent-cern-ps1 over sasl_ssl") {
		t.Errorf("status:\n%s", status.String())
	}

	k.fix()
	waitFor(t, tick.C, "the spool to drain", func() bool { return a.Health().Spool.DepthSamples == 0 })
	if h := a.Health(); h.Status != "ok" || h.Kafka.State != KafkaConnected || h.Kafka.Reason != "" || h.Kafka.Acked != h.Samples.Spooled {
		t.Errorf("health once accepted: %+v", h.Kafka)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	log := logs.String()
	if n := strings.Count(log, `msg="kafka refuses this agent: authentication refused`); n != 1 {
		t.Errorf("the refusal was logged %d times:\n%s", n, log)
	}
	if !strings.Contains(log, `user=agent-cern-ps1 password="in `+cfg.Kafka.SASL.PasswordFile+`"`) {
		t.Errorf("the refusal does not name the user and the password file:\n%s", log)
	}
	if n := strings.Count(log, "kafka accepts this agent again"); n != 1 {
		t.Errorf("acceptance logged %d times:\n%s", n, log)
	}
	for what, text := range map[string]string{"the log": log, "/health": body, "/metrics": metrics, "status": status.String()} {
		if strings.Contains(text, knownPassword) {
			t.Errorf("the password appears in %s", what)
		}
	}
}

// The agent reads its password file when it starts: one it cannot read stops it there, with
// the key and the file named.
func TestAnUnreadablePasswordFileStopsTheAgentAtStart(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "127.0.0.1:1", "  - {id: tput, kind: synthetic, interval: 1h}\n")
	os.Remove(filepath.Join(dir, "kafka.password"))
	_, err := New(cfg, Options{Logger: quiet})
	want := "kafka: kafka.sasl.password_file: password file: open " + filepath.Join(dir, "kafka.password") + ": no such file or directory"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}
