//go:build integration

package watchdog

// The late-records check against the native stack (see watchdog_integration_test.go): the real
// job's window counters, and a warning raised and cleared for pings that came late.

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"testing"
	"time"

	"longhaul/ingest/contract"
	"longhaul/operator/flink"
)

// The real job's windows drop a ping that comes 5 minutes behind the watermark (a spooled sample,
// a failover): the watchdog warns that the statistics miss it, and clears the warning once no
// record has come late for its window.
func TestIntegrationWatchdogWarnsOfRecordsTheStatisticsDroppedAsLate(t *testing.T) {
	t.Parallel() // beside the job's and the series' tests (watchdog_integration_test.go's head)
	name := fmt.Sprintf("longhaul-wdit-late-%d", time.Now().UnixNano()%1_000_000)
	host := fmt.Sprintf("wdit-late-%d.example.org", time.Now().UnixNano()%1_000_000)
	ev := followEvents(t, name)
	cli(t, "job", "submit", "--name", name, "--", "--starting-offsets", "latest", "--out-of-orderness", "1s",
		"--idleness", "3s", "--checkpoint-interval", "2s")
	// stopped after a savepoint, which commits its Kafka transactions: a canceled job leaves them
	// open for their 10-minute timeout, and every read_committed reader of the stats topic (the
	// next Python tests') waits behind them (seen: test_clock_skew and test_import timed out when
	// they ran within 10 minutes of this test)
	t.Cleanup(func() {
		if exec.Command(cliPath(), "job", "stop", "--name", name).Run() != nil {
			exec.Command(cliPath(), "job", "cancel", "--name", name).Run()
		}
	})
	lateMetricsOfTheRealJob(t, name)
	window := 20 * time.Second
	th := DefaultThresholds()
	th.LateWindow = window
	wd := serve(t, Options{Job: name, Interval: time.Second, Grace: 2 * time.Second, Thresholds: th,
		Checks: []Check{&LateCheck{Window: th.LateWindow}}})
	defer wd.stop(t)
	time.Sleep(3 * time.Second) // the watchdog has read the count it starts from

	prod, err := itAdmin(t).NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	// sent now, by a right clock: a late delivery, not a skewed one
	publish := func(ts time.Time) { publishPing(t, prod, host, ts, time.Now()) }
	for i := 0; i < 6; i++ { // live pings: the watermark reaches now - 1 s (the other partitions go idle)
		publish(time.Now())
		time.Sleep(time.Second)
	}
	sent := time.Now()
	for i := 0; i < 3; i++ {
		publish(sent.Add(-5 * time.Minute))
	}
	late := ev.await(t, 60*time.Second, "pipeline_degraded for late records", kind(ComponentLate, contract.KindPipelineDegraded))
	validEvent(t, late)
	t.Logf("late records: pipeline_degraded %.1f s after they were sent: %s", since(sent, late), late.Message)
	if n, _ := late.Evidence["late_records_in_window"].(float64); n < 3 || late.Severity != SeverityWarning {
		t.Fatalf("%+v", late)
	}
	back := ev.await(t, window+60*time.Second, "pipeline_recovered for late records", kind(ComponentLate, contract.KindPipelineRecovered))
	validEvent(t, back)
	t.Logf("no late record for the window (%s): pipeline_recovered %.1f s after they were sent", window, since(sent, back))
	if back.EpisodeID != late.EpisodeID || since(sent, back) < window.Seconds() {
		t.Fatalf("%.1f s: %+v", since(sent, back), back)
	}
}

// lateMetricsOfTheRealJob: the late-records check finds, on the real job, the counter of each of
// its statistics windows (1m, 1h, 1d) by the REST ids Flink gives them, and reads their sum.
func lateMetricsOfTheRealJob(t *testing.T, name string) {
	fc := itFlink(t)
	ctx := context.Background()
	jobs, err := fc.Running(ctx, name)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("job %s: %v %v", name, jobs, err)
	}
	var where flink.LateMetrics
	deadline := time.Now().Add(60 * time.Second) // a job's metrics reach the REST API after its tasks run
	for len(where) < 3 && time.Now().Before(deadline) {
		if where, err = fc.FindLateMetrics(ctx, jobs[0].ID); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
	}
	var ids []string
	for _, v := range where {
		ids = append(ids, v...)
	}
	if len(where) != 3 || !slices.Contains(ids, "stats__1m_windows."+flink.LateMetric) {
		t.Fatalf("late-record counters of job %s: %v (want the 1m, 1h and 1d windows')", name, where)
	}
	n, err := fc.LateDropped(ctx, jobs[0].ID, where)
	if err != nil || n < 0 {
		t.Fatalf("%d %v", n, err)
	}
	t.Logf("job %s counts late records in %v: %d so far", name, ids, n)
}
