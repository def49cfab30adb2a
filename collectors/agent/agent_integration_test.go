//go:build integration

package agent

import (
	"context"
	"testing"
	"time"

	"longhaul/collectors/internal/kafkatest"
	"longhaul/ingest/sample"
)

func spoolSection(dir, maxBytes, segBytes string) string {
	return "  dir: " + dir + "\n  max_bytes: " + maxBytes + "\n  segment_bytes: " + segBytes
}

// Synthetic throughput runs take 450 ms and are exclusive; three targets every second with
// up to 500 ms of slip overbook the exclusive slot (1.35 s of runs a second), so some cannot start in
// their slot (not_started summaries travel too).
const meshProbes = `  - id: tput
    kind: synthetic
    interval: 1s
    jitter: 500ms
    max_wait: 700ms
    params: {intervals: 5, exclusive: true, duration: 450ms}
  - id: host
    kind: host
    interval: 2s
`

// itBroker is the test's broker and the agent's credential on it.
type itBroker struct {
	*kafkatest.Broker
	user, passwordFile string
}

// startBroker starts a secured broker, creates the contract's topics and an agent's user with
// an agent's ACLs, as `longhaul admin add-agent` does.
func startBroker(t *testing.T) *itBroker {
	b := kafkatest.Parallel(t, itStackDir, itPort, itCtrlPort)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b.CreateTopics(ctx)
	user, pw := b.AddAgent("it-sender")
	return &itBroker{Broker: b, user: user, passwordFile: pw}
}

func TestIntegrationPublishedSamplesReachTheRawTopicsAndValidate(t *testing.T) {
	t.Parallel()
	b := startBroker(t)
	dir := t.TempDir()
	obs := newObserved()
	ag := startAgent(t, itConfig(t, dir, b, b.Addr, spoolSection(dir+"/spool", "64MiB", "1MiB"), meshProbes), obs)
	waitUntil(t, "15 s of runs", 30*time.Second, func() bool { return time.Since(ag.started) > 15*time.Second })
	ag.stop(t)
	if left := ag.Health().Spool.DepthSamples; left != 0 {
		t.Errorf("a clean stop with Kafka reachable left %d samples in the spool", left)
	}

	out := verify(t, b, obs, 60*time.Second, 0)
	t.Logf("samples: %s; not_started runs: %d", out, obs.notRun)
	if out.lost != 0 {
		t.Fatalf("%d samples lost, e.g. %v", out.lost, out.missing)
	}
	if out.byTopic[own(sample.TopicThroughput)] == 0 || out.byTopic[own(sample.TopicHost)] == 0 {
		t.Fatalf("expected throughput and host samples: %v", out.byTopic)
	}
	if obs.notRun == 0 {
		t.Error("the busy exclusive slot produced no not_started run")
	}
	if h := ag.Health(); h.Samples.DeadLettered != 0 || h.Spool.DroppedTotal != 0 {
		t.Errorf("health: %+v", h)
	}
}

func TestIntegrationNoSampleLostWhileTheBrokerIsDownForAMinute(t *testing.T) {
	t.Parallel()
	b := startBroker(t)
	dir := t.TempDir()
	obs := newObserved()
	ag := startAgent(t, itConfig(t, dir, b, b.Addr, spoolSection(dir+"/spool", "64MiB", "1MiB"), meshProbes), obs)
	waitUntil(t, "the first acknowledgements", 30*time.Second, func() bool { return ag.Health().Kafka.Acked > 50 })

	b.Stop()
	down := time.Now()
	waitUntil(t, "the agent to notice", 30*time.Second, func() bool { return !ag.Health().Kafka.Connected })
	ackedAtStop := ag.Health().Kafka.Acked
	for time.Since(down) < 60*time.Second {
		time.Sleep(time.Second)
	}
	during := ag.Health()
	t.Logf("after %.0fs down: spool %d samples / %d bytes, kafka connected %v, in flight %d, status %s",
		time.Since(down).Seconds(), during.Spool.DepthSamples, during.Spool.DepthBytes, during.Kafka.Connected,
		during.Kafka.InFlight, during.Status)
	if during.Spool.DepthSamples < 500 || during.Status != "degraded" || during.Kafka.Connected {
		t.Fatalf("while down: %+v", during)
	}
	t.Logf("acknowledged before the stop: %d; while down: %d (in flight when it stopped)", ackedAtStop, during.Kafka.Acked-ackedAtStop)

	b.Start()
	drain := waitUntil(t, "the spool to drain", 120*time.Second, func() bool {
		return ag.Health().Spool.DepthSamples < 50 // what a few seconds of runs keep in it
	})
	t.Logf("backlog of %d samples drained %.1fs after the broker was healthy again", during.Spool.DepthSamples, drain.Seconds())
	time.Sleep(5 * time.Second)
	ag.stop(t)
	if left := ag.Health().Spool.DepthSamples; left != 0 {
		t.Errorf("a clean stop with Kafka reachable left %d samples in the spool", left)
	}

	out := verify(t, b, obs, 90*time.Second, 0)
	t.Logf("samples: %s", out)
	if out.lost != 0 {
		t.Fatalf("%d samples lost, e.g. %v", out.lost, out.missing)
	}
	if h := ag.Health(); h.Spool.DroppedTotal != 0 || h.Spool.DepthSamples != 0 {
		t.Fatalf("after the drain: %+v", h.Spool)
	}
}

// Thirty intervals a run, like a 30 s iperf3 test, to fill a small spool quickly.
const fillProbes = `  - id: tput
    kind: synthetic
    interval: 1s
    jitter: 100ms
    params: {intervals: 30, exclusive: false}
`

// unreachable is where the first agent of a restart test looks for Kafka: nothing listens
// there, so every connection is refused, as when the broker is down.
const unreachable = "127.0.0.1:1"

func TestIntegrationNoSampleLostAcrossAnAgentRestartWithANearlyFullSpool(t *testing.T) {
	t.Parallel()
	b := startBroker(t)
	dir := t.TempDir()
	spool := spoolSection(dir+"/spool", "1MiB", "64KiB")
	obs := newObserved()
	first := startAgent(t, itConfig(t, dir, b, unreachable, spool, fillProbes), obs)
	waitUntil(t, "the spool to fill to 85%", 120*time.Second, func() bool {
		return first.Health().Spool.DiskBytes > 1<<20*85/100
	})
	full := first.Health()
	first.stop(t)
	if full.Spool.DroppedTotal != 0 || full.Kafka.Acked != 0 {
		t.Fatalf("first agent: %+v", full.Spool)
	}
	t.Logf("first agent stopped with %d samples (%d bytes on disk of 1 MiB) in its spool", full.Spool.DepthSamples, full.Spool.DiskBytes)

	second := startAgent(t, itConfig(t, dir, b, b.Addr, spool, fillProbes), obs)
	reloaded := second.Health().Spool.DepthSamples
	drain := waitUntil(t, "the reloaded spool to drain", 120*time.Second, func() bool {
		return second.Health().Kafka.Acked >= uint64(reloaded)
	})
	t.Logf("second agent reloaded %d samples and Kafka acknowledged them within %.1fs", reloaded, drain.Seconds())
	if reloaded < full.Spool.DepthSamples {
		t.Fatalf("reloaded %d of the %d samples left", reloaded, full.Spool.DepthSamples)
	}
	time.Sleep(3 * time.Second)
	second.stop(t)

	out := verify(t, b, obs, 90*time.Second, 0)
	t.Logf("samples: %s", out)
	if out.lost != 0 {
		t.Fatalf("%d samples lost, e.g. %v", out.lost, out.missing)
	}
}

func TestIntegrationAFullSpoolDropsTheOldestIntervalRowsAndCountsEveryDrop(t *testing.T) {
	t.Parallel()
	b := startBroker(t)
	dir := t.TempDir()
	spool := spoolSection(dir+"/spool", "512KiB", "64KiB")
	obs := newObserved()
	first := startAgent(t, itConfig(t, dir, b, unreachable, spool, fillProbes), obs)
	waitUntil(t, "interval rows to be dropped", 120*time.Second, func() bool {
		return first.Health().Spool.DroppedInterval > 500
	})
	first.stop(t)
	h := first.Health()
	t.Logf("spool full: %d samples spooled, %d interval rows dropped, %d others dropped, %d bytes kept of %d",
		h.Samples.Spooled, h.Spool.DroppedInterval, h.Spool.DroppedOther, h.Spool.DiskBytes, h.Spool.MaxBytes)
	if h.Spool.DroppedOther != 0 || h.Spool.DiskBytes > h.Spool.MaxBytes {
		t.Fatalf("spool: %+v", h.Spool)
	}

	second := startAgent(t, itConfig(t, dir, b, b.Addr, spool, `  - id: idle
    kind: synthetic
    interval: 1h
    params: {intervals: 1}
`), obs)
	reloaded := second.Health().Spool.DepthSamples
	waitUntil(t, "the spool to drain", 120*time.Second, func() bool { return second.Health().Kafka.Acked >= uint64(reloaded) })
	second.stop(t)

	out := verify(t, b, obs, 90*time.Second, int(h.Spool.DroppedInterval))
	t.Logf("samples: %s; lost by kind %v; drops counted: %d interval, %d other", out, out.lostByKind,
		h.Spool.DroppedInterval, h.Spool.DroppedOther)
	if out.lost != out.lostByKind["throughput_sample/interval"] {
		t.Fatalf("samples other than interval rows lost: %v", out.lostByKind)
	}
	if uint64(out.lost) != h.Spool.DroppedInterval {
		t.Fatalf("%d interval rows missing but %d drops counted: a drop went uncounted or a sample was lost", out.lost, h.Spool.DroppedInterval)
	}
}
