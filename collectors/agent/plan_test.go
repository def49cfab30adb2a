package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"longhaul/collectors/config"
	"longhaul/collectors/schedule"
	_ "longhaul/probes/all" // the kinds a plan runs: throughput, path, rtt
)

// The agent plans from the template beside its own probes, follows a changed template without
// a restart, and keeps the last good plan, saying so, when the template fails.
func TestThePSConfigPlanRunsBesideTheConfigAndKeepsTheLastGoodOne(t *testing.T) {
	srv := &tmplServer{}
	srv.set(meshOf("ps1.example.org", "ps2.example.org"), `"v1"`, 0)
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	cfg := psconfigConfig(t, t.TempDir(), ts.URL+"/pub/auto/ps1.example.org")
	a, err := New(cfg, Options{Version: "test", Logger: quiet, Clock: schedule.NewFakeClock(t0), Producer: newMemKafka(),
		PSConfigClient: ts.Client(), Exec: func(context.Context, []string) ([]byte, []byte, error) { return nil, nil, fmt.Errorf("not here") }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.closeAll()
	spool := a.spool

	check := func(step string, state string, planned, running, byPScheduler, rttTargets int) Health {
		t.Helper()
		h := a.Health()
		p := h.PSConfig
		if p == nil || p.State != state || p.Planned != planned || p.Running != running || p.ByPScheduler != byPScheduler || p.Unsupported != 0 {
			t.Fatalf("%s: psconfig %+v", step, p)
		}
		if got := h.Probes["mesh-rtt"]; got.Kind != "rtt" || got.Targets != rttTargets {
			t.Errorf("%s: mesh-rtt %+v", step, got)
		}
		if got := h.Probes["own"]; got.Kind != "synthetic" || got.Targets != 1 {
			t.Errorf("%s: the config's own probe %+v", step, got)
		}
		if a.spool != spool {
			t.Errorf("%s: the spool was reopened", step)
		}
		return h
	}
	// ps1 schedules ps1→ps2: rtt and trace run, latencybg is pScheduler's to measure.
	h := check("first plan", "ok", 3, 2, 1, 1)
	if h.Probes["mesh-trace"].Kind != "path" || len(h.PSConfig.Pairs) != 0 {
		t.Errorf("first plan: %+v %+v", h.Probes, h.PSConfig.Pairs)
	}

	// A third address: one more pair per task, applied without a restart.
	srv.set(meshOf("ps1.example.org", "ps2.example.org", "ps3.example.org"), `"v2"`, 0)
	if err := a.RefreshPlan(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("changed template", "ok", 6, 4, 2, 2)

	// Not modified: nothing changes.
	if err := a.RefreshPlan(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("304", "ok", 6, 4, 2, 2)

	// The server fails, then serves an invalid document: the last good plan stays, in /health,
	// in status, degraded.
	srv.set("", `"v3"`, http.StatusInternalServerError)
	if err := a.RefreshPlan(context.Background()); err == nil || !strings.Contains(err.Error(), "HTTP 500") {
		t.Fatalf("500: %v", err)
	}
	h = check("500", "stale", 6, 4, 2, 2)
	if !strings.Contains(h.PSConfig.LastError, "HTTP 500 Internal Server Error: down for maintenance") || h.Status == "ok" {
		t.Errorf("500: status %s, %+v", h.Status, h.PSConfig)
	}
	srv.set(`{"addresses":{}, "groups":`, `"v4"`, 0)
	if err := a.RefreshPlan(context.Background()); err == nil || !strings.Contains(err.Error(), "invalid pSConfig template") {
		t.Fatalf("invalid: %v", err)
	}
	h = check("invalid JSON", "stale", 6, 4, 2, 2)
	var out bytes.Buffer
	WriteStatus(&out, h, time.Now())
	if s := out.String(); !strings.Contains(s, "psconfig: FAILING (https://") || !strings.Contains(s, "invalid pSConfig template") ||
		!strings.Contains(s, "the last good plan of") || !strings.Contains(s, "6 pairs planned, 4 run, 2 measured by pScheduler (its archiver sends them), 0 unsupported") {
		t.Errorf("status:\n%s", s)
	}
	var metrics bytes.Buffer
	writeMetrics(&metrics, h)
	if s := metrics.String(); !strings.Contains(s, "longhaul_probe_psconfig_ok 0\n") || !strings.Contains(s, "longhaul_probe_psconfig_fetch_failures_total 2\n") {
		t.Errorf("metrics:\n%s", s)
	}

	// Mended: ok again with the template as it is now.
	srv.set(meshOf("ps1.example.org", "ps2.example.org"), `"v5"`, 0)
	if err := a.RefreshPlan(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("mended", "ok", 3, 2, 1, 1)
}

// Without a plan at start (the server is down) the agent still starts on its own probes and
// says why there is no plan.
func TestAnAgentWhoseTemplateCannotBeFetchedStartsOnItsOwnProbes(t *testing.T) {
	ts := httptest.NewTLSServer(http.NotFoundHandler())
	defer ts.Close()
	cfg := psconfigConfig(t, t.TempDir(), ts.URL+"/pub/auto/ps1.example.org")
	a, err := New(cfg, Options{Version: "test", Logger: quiet, Clock: schedule.NewFakeClock(t0), Producer: newMemKafka(), PSConfigClient: ts.Client()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.closeAll()
	h := a.Health()
	if h.PSConfig.State != "none" || !strings.Contains(h.PSConfig.LastError, "HTTP 404") || h.Probes["own"].Targets != 1 || h.Status == "ok" {
		t.Errorf("%s %+v %+v", h.Status, h.PSConfig, h.Probes)
	}
	var out bytes.Buffer
	WriteStatus(&out, h, time.Now())
	if !strings.Contains(out.String(), "psconfig: NO PLAN (https://") {
		t.Errorf("status:\n%s", out.String())
	}
}

// The WLCG-like golden template as the agent on psonar1.cern.ch runs it: the throughput from
// the no-agent partner (iperf3 -R) has its own probe id beside this host's own throughput to
// it; the partner's rtt is pinged once for both of its pairs.
func TestTheWLCGPlanOfOneHostAsTheAgentRunsIt(t *testing.T) {
	tp := wlcgTemplate(t)
	p := &planner{taken: map[string]bool{}, limits: config.DefaultPSConfigLimits()}
	entries := tp.Plan([]string{"psonar1.cern.ch"})
	tasks := p.tasksOf(entries)
	var got []string
	for _, task := range tasks {
		got = append(got, fmt.Sprintf("%s→%s every %s jitter %s max_wait %s", task.ProbeID, task.Dst, task.Interval, task.Jitter, task.MaxWait))
	}
	want := []string{
		"cern-v6-trace→psonar1.fnal.gov every 10m0s jitter 10m0s max_wait 10m0s",
		"external-rtt→www.example.org every 5m0s jitter 0s max_wait 30s",
		"lhcone-rtt→lhcone-ps.bnl.gov every 5m0s jitter 0s max_wait 30s",
		"lhcone-rtt→ps.noagent.example every 5m0s jitter 0s max_wait 30s",
		"wlcg-throughput.reverse→ps.noagent.example every 4h0m0s jitter 3h59m30s max_wait 3h59m30s",
		"wlcg-throughput→ccperfsonar1.in2p3.fr every 4h0m0s jitter 3h59m30s max_wait 3h59m30s",
		"wlcg-throughput→ps.noagent.example every 4h0m0s jitter 3h59m30s max_wait 3h59m30s",
		"wlcg-throughput→psonar1.fnal.gov every 4h0m0s jitter 3h59m30s max_wait 3h59m30s",
		"wlcg-trace→ccperfsonar1.in2p3.fr every 10m0s jitter 10m0s max_wait 10m0s",
		"wlcg-trace→ps.noagent.example every 10m0s jitter 10m0s max_wait 10m0s",
		"wlcg-trace→psonar1.fnal.gov every 10m0s jitter 10m0s max_wait 10m0s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tasks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	unsupported := 0
	for _, e := range entries {
		if e.Unsupported != "" {
			unsupported++
		}
		if e.Task == "lhcone-rtt" && e.Src == "psonar1.cern.ch" && !strings.Contains(e.Unsupported, "already run: this task pings ps.noagent.example") {
			t.Errorf("the partner's second rtt pair: %+v", e)
		}
	}
	if len(entries) != 20 || unsupported != 5 {
		t.Errorf("%d entries, %d unsupported", len(entries), unsupported)
	}
	for _, task := range tasks {
		if task.ProbeID == "wlcg-throughput.reverse" && (!task.Shared || !task.Probe.Exclusive()) {
			t.Errorf("the reverse throughput: %+v", task)
		}
	}
}

// A running agent takes a changed template without a restart: the new pair's runs reach
// Kafka through the same spool, and nothing is lost on the way.
func TestARunningAgentAppliesAChangedPlanWithoutARestart(t *testing.T) {
	srv := &tmplServer{}
	srv.set(meshOf("ps1.example.org", "ps2.example.org"), `"v1"`, 0)
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	cfg := psconfigConfig(t, t.TempDir(), ts.URL+"/pub/auto/ps1.example.org")
	clock := schedule.NewFakeClock(t0)
	mem := newMemKafka()
	a, err := New(cfg, Options{Version: "test", Logger: quiet, Clock: clock, Producer: mem, PSConfigClient: ts.Client(),
		Exec: func(context.Context, []string) ([]byte, []byte, error) {
			return nil, []byte("no tools here"), fmt.Errorf("exit status 2")
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- a.Run(ctx) }()
	published := func(key string) bool {
		for _, r := range mem.records() {
			if string(r.Key) == key {
				return true
			}
		}
		return false
	}
	// step moves the fake clock to the next timer once the scheduler and the plan loop both wait.
	step := func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		waitFor(t, tick.C, "runs in progress to end", func() bool { return a.sched.Running() == 0 })
		if !clock.WaitTimers(2, 5*time.Second) {
			t.Fatal("scheduler and plan loop not both waiting")
		}
		next, _ := clock.NextTimer()
		clock.Advance(next.Sub(clock.Now()))
	}
	for i := 0; i < 40 && !published("cern-ps1|ps2.example.org"); i++ {
		step()
	}
	if published("cern-ps1|ps3.example.org") || !published("cern-ps1|ps2.example.org") {
		t.Fatalf("first plan: %d records", len(mem.records()))
	}
	// The plan's display names are on every sample of its pairs (schema v2), and not on the
	// config's own probe's.
	for _, r := range mem.records() {
		var m struct {
			Version int               `json:"version"`
			ProbeID string            `json:"probe_id"`
			Labels  map[string]string `json:"labels"`
		}
		if err := json.Unmarshal(r.Value, &m); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"src.display-name": "Site 0", "dst.display-name": "Site 1"}
		if m.ProbeID == "own" {
			want = nil
		}
		if !maps.Equal(m.Labels, want) || m.Version != 2 {
			t.Errorf("%s: version %d labels %v, want %v", r.Key, m.Version, m.Labels, want)
		}
	}
	srv.set(meshOf("ps1.example.org", "ps2.example.org", "ps3.example.org"), `"v2"`, 0)
	if err := a.RefreshPlan(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40 && !published("cern-ps1|ps3.example.org"); i++ {
		step()
	}
	if !published("cern-ps1|ps3.example.org") {
		t.Fatal("the new pair never ran")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	h := a.Health()
	if h.Samples.Lost != 0 || h.Samples.Spooled != uint64(len(mem.records())) || h.Probes["mesh-rtt"].Targets != 2 || h.Probes["mesh-rtt"].Runs == 0 {
		t.Errorf("health: samples %+v, %d records, mesh-rtt %+v", h.Samples, len(mem.records()), h.Probes["mesh-rtt"])
	}
}

// With psconfig.screen on, each TCP throughput pair of the plan gets a screening burst beside it:
// its own test, shorter, more often, marked as screening it; other pairs get none.
func TestThePlansThroughputPairsGetAScreeningBurstEach(t *testing.T) {
	tp := wlcgTemplate(t)
	p := &planner{taken: map[string]bool{}, limits: config.DefaultPSConfigLimits(), screen: config.PSConfigScreen{
		Interval: config.Duration(10 * time.Minute), Duration: config.Duration(2 * time.Second)}}
	tasks := p.tasksOf(tp.Plan([]string{"psonar1.cern.ch"}))
	full := map[string]schedule.Task{}
	for _, task := range tasks {
		if task.Screens == "" {
			full[task.ProbeID+"→"+task.Dst] = task
		}
	}
	var got []string
	for _, task := range tasks {
		if task.Screens == "" {
			continue
		}
		got = append(got, fmt.Sprintf("%s→%s every %s jitter %s max_wait %s screens %s", task.ProbeID, task.Dst,
			task.Interval, task.Jitter, task.MaxWait, task.Screens))
		f, ok := full[task.Screens+"→"+task.Dst]
		if !ok {
			t.Errorf("%s screens %s, which does not run against %s", task.ProbeID, task.Screens, task.Dst)
			continue
		}
		// the same test, 2 s instead of the pair's own length and omitted seconds
		if d := f.Probe.Timeout() - task.Probe.Timeout(); d <= 0 || !task.Probe.Exclusive() || task.Shared != f.Shared {
			t.Errorf("%s: timeout %s against the full test's %s", task.ProbeID, task.Probe.Timeout(), f.Probe.Timeout())
		}
	}
	want := []string{
		"wlcg-throughput.reverse.burst→ps.noagent.example every 10m0s jitter 1m0s max_wait 5m0s screens wlcg-throughput.reverse",
		"wlcg-throughput.burst→ccperfsonar1.in2p3.fr every 10m0s jitter 1m0s max_wait 5m0s screens wlcg-throughput",
		"wlcg-throughput.burst→ps.noagent.example every 10m0s jitter 1m0s max_wait 5m0s screens wlcg-throughput",
		"wlcg-throughput.burst→psonar1.fnal.gov every 10m0s jitter 1m0s max_wait 5m0s screens wlcg-throughput",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bursts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(tasks) != 11+len(want) {
		t.Errorf("%d tasks", len(tasks))
	}
}

// A template is someone else's document: the pairs that would make this host run longer, wider,
// faster or more often than its own ceilings (config psconfig.limits) run nothing, each saying
// which ceiling, and the rest of the plan runs.
func TestATemplateCannotMakeTheHostRunBeyondItsCeilings(t *testing.T) {
	dir := t.TempDir()
	tput := func(name, spec, repeat string) string {
		return fmt.Sprintf(`"%s":{"type":"throughput","spec":{"source":"{%% address[0] %%}","dest":"{%% address[1] %%}"%s}}`, name, spec) +
			fmt.Sprintf(`@"%s":{"repeat":%q}`, name, repeat)
	}
	tests := []string{
		tput("ok", `,"duration":"PT30S","parallel":4`, "PT4H"),
		tput("long", `,"duration":"PT50S","omit":"PT15S"`, "PT4H"),
		tput("wide", `,"parallel":32`, "PT4H"),
		tput("fast", `,"udp":true,"bandwidth":2000000000,"parallel":8`, "PT4H"),
		tput("often", ``, "PT1M"),
	}
	var ts, ss, ks []string
	for _, x := range tests {
		test, sched, _ := strings.Cut(x, "@")
		name := strings.Trim(strings.SplitN(test, ":", 2)[0], `"`)
		ts, ss = append(ts, test), append(ss, sched)
		ks = append(ks, fmt.Sprintf(`"t-%s":{"group":"g","test":%q,"schedule":%q}`, name, name, name))
	}
	doc := `{"addresses":{"a":{"address":"ps1.example.org"},"b":{"address":"ps2.example.org"}},
	  "groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"}]}},
	  "tests":{` + strings.Join(ts, ",") + `},"schedules":{` + strings.Join(ss, ",") + `},"tasks":{` + strings.Join(ks, ",") + `}}`
	path := filepath.Join(dir, "template.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := psconfigConfig(t, dir, path)
	entries, err := CheckPlan(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, e := range entries {
		why[e.Task] = e.Unsupported
	}
	want := map[string]string{
		"t-ok":    "",
		"t-long":  "a run of 1m5s is longer than this host's psconfig.limits.max_duration 1m0s",
		"t-wide":  "32 streams are more than this host's psconfig.limits.max_streams 8",
		"t-fast":  "16000 Mbit/s is more than this host's psconfig.limits.max_mbps 10000",
		"t-often": "every 1m0s is more often than this host's psconfig.limits.min_interval 5m0s for a throughput pair",
	}
	if !maps.Equal(why, want) {
		t.Fatalf("reasons:\n got %q\nwant %q", why, want)
	}

	// the pairs past max_pairs run nothing either
	cfg.PSConfig.Limits.MaxPairs = 2
	entries, err = CheckPlan(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if last := entries[len(entries)-1].Unsupported; last != "the plan gives this host more than its psconfig.limits.max_pairs 2 pairs" {
		t.Fatalf("past max_pairs: %q", last)
	}
}
