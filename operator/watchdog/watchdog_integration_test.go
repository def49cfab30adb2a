//go:build integration

package watchdog

// Against the native stack (scripts/test-all.sh starts it and exports its settings, the tests
// being Kafka's admin): the watchdog runs in-process as the watchdog principal (its password file
// among the stack's secrets) and its events are read back from the events topic. Each test's
// watchdog is an instance of its own (a job name of its own) and judges only what the test makes,
// so it raises nothing about the rest of the stack.
//
// Side by side (t.Parallel, after the others; 110 s in a row, 2026-12-05): the late records' test,
// the job's and the series' each judge only their own job or subject, and the first two hold a
// task slot each (the test stack has 3). The agent's test runs alone, first: its pings, 60 s
// behind, would come late to the late records' test's job and count in the window it judges.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/logtest"
	"longhaul/internal/settings"
	"longhaul/operator/flink"
	"longhaul/operator/influx"
)

// itWatchdogConn is the watchdog's own identity on the stack, the environment's when the stack
// has no watchdog user.
func itWatchdogConn(t *testing.T) kafkaconn.Conn {
	c, err := kafkaconn.Parse(settings.Kafka.Value())
	if err != nil {
		t.Fatal(err)
	}
	sec := kafkaconn.FromEnv()
	if pw := filepath.Join(settings.SecretsDir.Value(), "kafka-watchdog.password"); settings.SecretsDir.Value() != "" {
		if _, err := os.Stat(pw); err == nil {
			sec.User, sec.PasswordFile = "watchdog", pw
		}
	}
	c, err = c.WithSecurity(sec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("watchdog as %s", c)
	return c
}

// itAdmin is the tests' connection (admin): it produces samples and reads the events topic.
func itAdmin(t *testing.T) kafkaconn.Conn {
	c, err := kafkaconn.FromSettings(settings.Kafka.Value())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// running is a watchdog served in the background; stop ends it and returns what Serve returned.
type running struct {
	cancel context.CancelFunc
	done   chan error
	log    *logtest.Buffer
}

func (r *running) stop(t *testing.T) {
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("watchdog ended with %v\n%s", err, r.log)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("watchdog did not stop\n%s", r.log)
	}
}

// itFlink is the stack's Flink REST API, with the stack's REST certificate.
func itFlink(t *testing.T) *flink.Client {
	c, err := flink.New(settings.Flink.Value(), settings.FlinkCert.Value())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func serve(t *testing.T, o Options) *running {
	o.Kafka = itWatchdogConn(t)
	o.Flink = itFlink(t)
	a := influx.AuthFromEnv()
	a.User, a.PasswordFile, a.CAFile = settings.InfluxUser.Value(), settings.InfluxPasswordFile.Value(), settings.InfluxCA.Value()
	ic, err := influx.New(settings.Influx.Value(), settings.InfluxDB.Value(), a)
	if err != nil {
		t.Fatal(err)
	}
	o.Influx = ic
	o.Timeout, o.MaxHosts, o.RestoreSince = 10*time.Second, 100, time.Hour
	o.StatusFile = filepath.Join(t.TempDir(), "status.json")
	log := &logtest.Buffer{}
	o.Log = log
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cancel: cancel, done: make(chan error, 1), log: log}
	go func() { r.done <- Serve(ctx, o) }()
	t.Cleanup(func() { cancel() })
	return r
}

// events follows the events topic from now, committed records only, keeping the watchdog events
// of one instance.
type events struct {
	cl       *kgo.Client
	instance string
	seen     []Event
}

func followEvents(t *testing.T, instance string) *events {
	cl, err := itAdmin(t).NewClient(kgo.ConsumeTopics(contract.TopicEvents), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AfterMilli(time.Now().Add(-time.Second).UnixMilli())))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return &events{cl: cl, instance: instance}
}

// await returns the first event (seen before or arriving within timeout) that want accepts.
func (e *events) await(t *testing.T, timeout time.Duration, what string, want func(Event) bool) Event {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for i := 0; ; i++ {
		for _, ev := range e.seen {
			if want(ev) {
				return ev
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s; watchdog events seen: %d", what, timeout, len(e.seen))
		}
		e.poll(time.Until(deadline))
	}
}

func (e *events) poll(max time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), min(max, 2*time.Second))
	defer cancel()
	e.cl.PollFetches(ctx).EachRecord(func(r *kgo.Record) {
		var ev Event
		if json.Unmarshal(r.Value, &ev) == nil && ev.ProbeID == ProbeID && ev.Evidence[EvidenceInstance] == e.instance {
			e.seen = append(e.seen, ev)
		}
	})
}

func kind(component, k string) func(Event) bool {
	return func(e Event) bool { return componentOf(e) == component && e.Kind == k }
}

func since(t0 time.Time, e Event) float64 { return float64(e.TS-t0.UnixMilli()) / 1000 }

// cliPath is the stack's longhaul command (LONGHAUL_CLI, else bin/longhaul of the checkout).
func cliPath() string {
	if bin := os.Getenv("LONGHAUL_CLI"); bin != "" {
		return bin
	}
	return "../../bin/longhaul" // go test runs in the package's folder
}

func cli(t *testing.T, args ...string) string {
	t.Helper()
	bin := cliPath()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// The Flink job: missing, then running, then stopped. A restarted watchdog does not raise the open
// alert again, and closes it when the job runs.
func TestIntegrationWatchdogFollowsTheFlinkJobAcrossItsOwnRestart(t *testing.T) {
	t.Parallel() // beside the late records' test (this file's head)
	name := fmt.Sprintf("longhaul-wdit-%d", time.Now().UnixNano()%1_000_000)
	ev := followEvents(t, name)
	opts := Options{Job: name, Interval: time.Second, Grace: 3 * time.Second, Thresholds: DefaultThresholds(),
		Checks: []Check{JobCheck{}}}

	t0 := time.Now()
	a := serve(t, opts)
	missing := ev.await(t, 60*time.Second, "pipeline_degraded for the missing job", kind(ComponentJob, contract.KindPipelineDegraded))
	validEvent(t, missing)
	t.Logf("job %s missing: pipeline_degraded %.1f s after the watchdog started (grace 3 s, every 1 s): %s",
		name, since(t0, missing), missing.Message)
	if missing.Evidence["state"] != "MISSING" || missing.Severity != SeverityCritical || missing.Src != "*" {
		t.Fatalf("%+v", missing)
	}

	// a restart of the watchdog: the episode is taken up, not raised again
	a.stop(t)
	b := serve(t, opts)
	defer b.stop(t)
	time.Sleep(8 * time.Second)
	ev.poll(2 * time.Second)
	for _, e := range ev.seen {
		if e.Kind == contract.KindPipelineDegraded && e.EpisodeID != missing.EpisodeID {
			t.Fatalf("the restarted watchdog raised the open alert again: %+v\n%s", e, b.log)
		}
	}
	if !strings.Contains(b.log.String(), "1 episodes of its own open") {
		t.Fatalf("the restarted watchdog did not take up its episode:\n%s", b.log)
	}

	t1 := time.Now()
	cli(t, "job", "submit", "--name", name, "--", "--starting-offsets", "latest")
	submitted := time.Now()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			exec.Command(cliPath(), "job", "cancel", "--name", name).Run()
		}
	})
	back := ev.await(t, 60*time.Second, "pipeline_recovered", kind(ComponentJob, contract.KindPipelineRecovered))
	validEvent(t, back)
	t.Logf("job submitted in %.1f s; pipeline_recovered %+.1f s from the submit command's return (it returns once every task runs): %s",
		submitted.Sub(t1).Seconds(), since(submitted, back), back.Message)
	if back.EpisodeID != missing.EpisodeID {
		t.Fatalf("the recovery closes %s, the alert was %s", back.EpisodeID, missing.EpisodeID)
	}
	lateMetricsOfTheRealJob(t, name)

	t2 := time.Now()
	cli(t, "job", "stop", "--name", name)
	stopped = true
	gone := time.Now()
	again := ev.await(t, 60*time.Second, "pipeline_degraded for the stopped job", func(e Event) bool {
		return kind(ComponentJob, contract.KindPipelineDegraded)(e) && e.EpisodeID != missing.EpisodeID
	})
	t.Logf("job stopped (savepoint) in %.1f s; pipeline_degraded %.1f s after it was gone: %s",
		gone.Sub(t2).Seconds(), since(gone, again), again.Message)
	if d := since(gone, again); d > 10 {
		t.Errorf("%.1f s from the job gone to its alert: want within grace 3 s + a cycle or two", d)
	}
}

// An agent's real samples: its clock 60 s behind the broker's is raised naming its host; its
// silence past its schedule is raised, and closed when it publishes again.
func TestIntegrationWatchdogHearsAnAgentFallSilentAndItsSkewedClock(t *testing.T) {
	name := fmt.Sprintf("longhaul-wdit-agent-%d", time.Now().UnixNano()%1_000_000)
	host := fmt.Sprintf("wdit-%d.example.org", time.Now().UnixNano()%1_000_000)
	ev := followEvents(t, name)
	th := DefaultThresholds()
	th.SilenceFloor, th.SilencePatience = 5*time.Second, 5*time.Second
	only := func(c Check) Check { return subjectOnly{c, host} }
	wd := serve(t, Options{Job: name, Interval: time.Second, Grace: 2 * time.Second, Thresholds: th,
		Checks: []Check{only(th.Silence()), only(SkewCheck{Tolerance: th.SkewTolerance, MinSamples: th.SkewSamples})}})
	defer wd.stop(t)

	prod, err := itAdmin(t).NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	publish := func(skew time.Duration) {
		now := time.Now()
		publishPing(t, prod, host, now, now.Add(skew))
	}
	time.Sleep(3 * time.Second) // the watchdog is following
	var last time.Time
	for i := 0; i < 8; i++ {
		if i > 0 {
			time.Sleep(time.Second)
		}
		publish(-60 * time.Second)
		last = time.Now()
	}
	skewed := ev.await(t, 30*time.Second, "pipeline_degraded for the skewed clock", kind(ComponentClock, contract.KindPipelineDegraded))
	validEvent(t, skewed)
	t.Logf("clock skew: %s", skewed.Message)
	if skewed.Src != host {
		t.Fatalf("the skew alert names %s, not %s", skewed.Src, host)
	}
	if s, _ := skewed.Evidence["skew_s"].(float64); s > -59 || s < -62 {
		t.Fatalf("skew %v, want about -60 s", skewed.Evidence["skew_s"])
	}

	silent := ev.await(t, 60*time.Second, "pipeline_degraded for the silent agent", kind(ComponentAgent, contract.KindPipelineDegraded))
	validEvent(t, silent)
	t.Logf("agent %s silent: pipeline_degraded %.1f s after its last sample (limit %v s, grace 2 s): %s",
		host, since(last, silent), silent.Evidence["limit_s"], silent.Message)
	if silent.Src != host || since(last, silent) < 6 || since(last, silent) > 15 {
		t.Fatalf("%.1f s: %+v", since(last, silent), silent)
	}

	publish(0)
	resumed := time.Now()
	back := ev.await(t, 30*time.Second, "pipeline_recovered for the agent", kind(ComponentAgent, contract.KindPipelineRecovered))
	validEvent(t, back)
	t.Logf("agent publishing again: pipeline_recovered %.1f s later", since(resumed, back))
	if back.EpisodeID != silent.EpisodeID || back.Src != host {
		t.Fatalf("%+v", back)
	}
}

// subjectOnly keeps a check's findings about one subject: the test's agent, not the stack's others.
type subjectOnly struct {
	Check
	subject string
}

func (s subjectOnly) Judge(o *Observations) []Finding {
	var out []Finding
	for _, f := range s.Check.Judge(o) {
		if f.Subject == s.subject {
			out = append(out, f)
		}
	}
	return out
}

// publishPing sends host's ping (the contract's example) measured at ts, stamped as sent at sent
// (the agent's clock: longhaul-sent-ms), and waits for the broker to take it.
func publishPing(t *testing.T, prod *kgo.Client, host string, ts, sent time.Time) {
	t.Helper()
	v, err := os.ReadFile("../../ingest/schemas/examples/rtt_sample.v1/valid/ping-ok.json")
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	json.Unmarshal(v, &s)
	s["src"], s["ts"], s["run_id"] = host, ts.UnixMilli(), fmt.Sprint(time.Now().UnixNano())
	raw, _ := json.Marshal(s)
	rec := &kgo.Record{Topic: contract.TopicRawRTT, Key: []byte(host + "|" + fmt.Sprint(s["dst"])), Value: raw,
		Headers: []kgo.RecordHeader{{Key: contract.HeaderSentMs, Value: []byte(strconv.FormatInt(sent.UnixMilli(), 10))}}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := prod.ProduceSync(ctx, rec).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// InfluxDB's own count of its series, read by the live watchdog: over a budget of 1 (any series)
// a warning naming the count; the default budget holds the test stack's.
func TestIntegrationWatchdogCountsInfluxDBsSeriesAgainstTheBudget(t *testing.T) {
	t.Parallel() // beside the late records' test (this file's head)
	name := fmt.Sprintf("longhaul-wdit-%d", time.Now().UnixNano()%1_000_000)
	ev := followEvents(t, name)
	opts := Options{Job: name, Interval: time.Second, Grace: 2 * time.Second, Thresholds: DefaultThresholds(),
		Checks: []Check{SeriesCheck{Budget: 1}}}
	a := serve(t, opts)
	over := ev.await(t, 60*time.Second, "pipeline_degraded for the series", kind(ComponentSeries, contract.KindPipelineDegraded))
	a.stop(t)
	validEvent(t, over)
	n, _ := over.Evidence["series"].(float64)
	if n < 1 || over.Severity != SeverityWarning || !strings.Contains(over.Message, "over the budget of 1 (--series-budget)") {
		t.Fatalf("%+v", over)
	}
	t.Logf("InfluxDB's series: %.0f (%s)", n, over.Message)
	if f := (SeriesCheck{Budget: DefaultSeriesBudget}).Judge(&Observations{Influx: InfluxObs{Series: int64(n)}}); !f[0].Healthy {
		t.Fatalf("the test stack's %.0f series are over the default budget: %+v", n, f)
	}
}
