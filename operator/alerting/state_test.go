package alerting

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/contract"
)

var t0 = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

func testState() *State {
	s := NewState(Sites{exact: map[string]string{"dst-a": "SITE-A"}}, Describer{GrafanaURL: "http://grafana:3000", LinkDashboard: "longhaul-link", MeshDashboard: "longhaul-mesh"}, time.Hour, 24*time.Hour)
	s.Now = func() time.Time { return t0 }
	return s
}

func ev(kind, src, dst string, at time.Duration, episode string) Event {
	return Event{Kind: kind, Src: src, Dst: dst, ProbeID: "collapse-detector", TS: t0.Add(at).UnixMilli(),
		Severity: "critical", Message: kind + " " + src + " → " + dst, EpisodeID: episode,
		Evidence: map[string]any{"baseline_bps": 9.5e7, "observed_bps": 5e6, "probe": "tcp-main"}}
}

func TestAnAlertFiresWithItsLabelsAndItsRecoveryResolvesThatAlert(t *testing.T) {
	s := testState()
	ch := s.Apply(ev(contract.KindThroughputCollapse, "s1", "dst-a", -2*time.Minute, "e-1"))
	if len(ch.Firing) != 1 || len(ch.Resolved) != 0 {
		t.Fatalf("%+v", ch)
	}
	a := ch.Firing[0]
	want := map[string]string{"alertname": "throughput_collapse", "src": "s1", "dst": "dst-a", "src_site": "s1",
		"dst_site": "SITE-A", "site": "SITE-A", "severity": "critical", "probe": "tcp-main", "role": "alert", "source": "longhaul"}
	for k, v := range want {
		if a.Labels[k] != v {
			t.Errorf("label %s=%q, want %q", k, a.Labels[k], v)
		}
	}
	if a.Annotations[AnnBaseline] != "baseline 95 Mbit/s, now 5 Mbit/s (-94.7 %)" {
		t.Errorf("baseline vs now: %q", a.Annotations[AnnBaseline])
	}
	if !strings.Contains(a.Annotations[AnnDashboard], "/d/longhaul-link?") || !strings.Contains(a.Annotations[AnnDashboard], "var-src=s1") {
		t.Errorf("dashboard %q", a.Annotations[AnnDashboard])
	}
	if a.Annotations[AnnReport] != "longhaul report --src s1 --dst dst-a --since 24h -o report.html" {
		t.Errorf("report %q", a.Annotations[AnnReport])
	}
	if !a.EndsAt.Equal(t0.Add(24 * time.Hour)) {
		t.Errorf("an open alert ends a hold ahead of now: %v", a.EndsAt)
	}
	rec := ev(contract.KindThroughputRecovery, "s1", "dst-a", 3*time.Minute, "e-1")
	rec.Severity = "info" // a recovery's own labels must not matter
	ch = s.Apply(rec)
	if len(ch.Resolved) != 1 || ch.Resolved[0].Identity() != a.Identity() || !ch.Resolved[0].EndsAt.Equal(rec.Time()) {
		t.Fatalf("recovery: %+v", ch)
	}
	if n, _ := s.Len(); n != 0 || len(s.Open()) != 0 {
		t.Fatalf("%d still open", n)
	}
}

func TestARecoveryWithoutEpisodeClosesTheLinksAlertsOfItsKindOnly(t *testing.T) {
	s := testState()
	s.Apply(ev(contract.KindUnreachable, "s1", "dst-a", 0, ""))
	s.Apply(ev(contract.KindUnreachable, "s2", "dst-a", 0, ""))
	s.Apply(ev(contract.KindHighLoss, "s1", "dst-a", 0, ""))
	ch := s.Apply(ev(contract.KindReachable, "s1", "dst-a", time.Minute, ""))
	if len(ch.Resolved) != 1 || ch.Resolved[0].Labels["src"] != "s1" || ch.Resolved[0].Labels["alertname"] != "unreachable" {
		t.Fatalf("%+v", ch.Resolved)
	}
	if n, _ := s.Len(); n != 2 {
		t.Fatalf("%d open, want 2", n)
	}
}

func TestAChangedLabelSetResolvesTheOldAlertAndKeepsTheEpisodeStart(t *testing.T) {
	s := testState()
	first := ev(contract.KindThroughputCollapse, "s1", "dst-a", 0, "e-1")
	first.Severity = "warning"
	old := s.Apply(first).Firing[0]
	ch := s.Apply(ev(contract.KindThroughputCollapse, "s1", "dst-a", 5*time.Minute, "e-1"))
	if len(ch.Resolved) != 1 || ch.Resolved[0].Identity() != old.Identity() {
		t.Fatalf("the warning is not resolved: %+v", ch)
	}
	if ch.Firing[0].Labels["severity"] != "critical" || !ch.Firing[0].StartsAt.Equal(first.Time()) {
		t.Fatalf("escalated alert %+v", ch.Firing[0])
	}
}

func TestNoticesAreOneAlertEachAndExpire(t *testing.T) {
	s := testState()
	a := s.Apply(ev(contract.KindRouteChange, "s1", "dst-a", -10*time.Minute, "")).Firing[0]
	b := s.Apply(ev(contract.KindRouteChange, "s1", "dst-a", -5*time.Minute, "")).Firing[0]
	if a.Identity() == b.Identity() || a.Labels["role"] != "info" {
		t.Fatalf("two route changes must be two notices: %v %v", a.Labels, b.Labels)
	}
	if !a.EndsAt.Equal(t0.Add(50*time.Minute)) || len(s.Open()) != 2 {
		t.Fatalf("a notice ends notice-for after its event: %v", a.EndsAt)
	}
	s.Now = func() time.Time { return t0.Add(56 * time.Minute) }
	if open := s.Open(); len(open) != 0 {
		t.Fatalf("expired notices still open: %d", len(open))
	}
}

func TestADiagnosisAnnotatesTheLinksOpenAlert(t *testing.T) {
	s := testState()
	s.Apply(ev(contract.KindThroughputCollapse, "s1", "dst-a", 0, "e-1"))
	d := ev(contract.KindDiagnosis, "s1", "dst-a", time.Minute, "")
	d.Message, d.Cause = "host-tuning-limited: 64 KiB / 140 ms", "host_tuning_limited"
	ch := s.Apply(d)
	if len(ch.Firing) != 2 || ch.Firing[0].Labels["cause"] != "host_tuning_limited" {
		t.Fatalf("%+v", ch.Firing)
	}
	if got := ch.Firing[1].Annotations[AnnDiagnosis]; got != d.Message {
		t.Fatalf("collapse's diagnosis %q", got)
	}
}

func TestASiteAlertListsItsLinksAndAPipelineOutageMarksLinkAlertsUnknown(t *testing.T) {
	s := testState()
	s.Apply(ev(contract.KindUnreachable, "s1", "dst-a", 0, ""))
	s.Apply(ev(contract.KindUnreachable, "s2", "dst-a", 0, ""))
	site := s.Apply(ev(contract.KindSiteUnreachable, "*", "dst-a", time.Second, "")).Firing[0]
	if site.Labels["site"] != "SITE-A" || site.Annotations[AnnLinks] != "s1 → dst-a (unreachable); s2 → dst-a (unreachable)" {
		t.Fatalf("site alert %v %q", site.Labels, site.Annotations[AnnLinks])
	}
	p := Event{Kind: contract.KindPipelineDegraded, Src: "*", Dst: "*", ProbeID: "watchdog", TS: t0.UnixMilli(),
		Severity: "critical", Message: "job down", EpisodeID: "w-1", Evidence: map[string]any{"component": "flink_job"}}
	ch := s.Apply(p)
	if ch.Firing[0].Labels["scope"] != "pipeline" || ch.Firing[0].Labels["component"] != "flink_job" {
		t.Fatalf("pipeline alert %v", ch.Firing[0].Labels)
	}
	if len(ch.Firing) != 4 || !strings.HasPrefix(ch.Firing[1].Annotations[AnnPipeline], "unknown: the monitoring pipeline is degraded (flink_job") {
		t.Fatalf("link alerts not marked unknown: %d %+v", len(ch.Firing), ch.Firing[1].Annotations)
	}
	p.Kind = contract.KindPipelineRecovered
	ch = s.Apply(p)
	if len(ch.Resolved) != 1 || ch.Firing[0].Annotations[AnnPipeline] != "" {
		t.Fatalf("after recovery: %+v", ch)
	}
}

// An agent's own pipeline_degraded (its src) and the pipeline's state raised again change no
// link alert's annotation, so they re-post none: at a fleet's scale 1,997 such events re-rendered
// 2,643 open alerts each, and the bridge took a core and 4.8 GB catching up (2026-12-05).
func TestOnlyAChangeOfThePipelinesStateRepostsEveryLinkAlert(t *testing.T) {
	s := testState()
	s.Apply(ev(contract.KindUnreachable, "s1", "dst-a", 0, ""))
	s.Apply(ev(contract.KindUnreachable, "s2", "dst-a", 0, ""))
	agent := Event{Kind: contract.KindPipelineDegraded, Src: "s3", Dst: "*", ProbeID: "watchdog", TS: t0.UnixMilli(),
		Severity: "warning", Message: "agent s3 silent", EpisodeID: "w-s3", Evidence: map[string]any{"component": "agent"}}
	if ch := s.Apply(agent); len(ch.Firing) != 1 || ch.Firing[0].Labels["src"] != "s3" {
		t.Fatalf("an agent's pipeline alert re-posted others: %d firing", len(ch.Firing))
	}
	job := Event{Kind: contract.KindPipelineDegraded, Src: "*", Dst: "*", ProbeID: "watchdog", TS: t0.UnixMilli(),
		Severity: "critical", Message: "job down", EpisodeID: "w-1", Evidence: map[string]any{"component": "flink_job"}}
	if ch := s.Apply(job); len(ch.Firing) != 3 {
		t.Fatalf("the pipeline's outage re-posted %d alerts, want itself and the 2 link alerts", len(ch.Firing))
	}
	if ch := s.Apply(job); len(ch.Firing) != 1 {
		t.Fatalf("the same outage raised again re-posted %d alerts, want itself", len(ch.Firing))
	}
	job.Kind = contract.KindPipelineRecovered
	if ch := s.Apply(job); len(ch.Resolved) != 1 || len(ch.Firing) != 2 || ch.Firing[0].Annotations[AnnPipeline] != "" {
		t.Fatalf("after recovery: %+v", ch)
	}
}

// Every valid event example of the contract goes through the bridge's state: the labels
// Alertmanager needs are there and each alert kind's recovery closes it.
func TestEveryContractExampleMakesAnAlertmanagerAlert(t *testing.T) {
	files, _ := filepath.Glob("../../ingest/schemas/examples/event.v*/valid/*.json")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		e, err := ParseEvent(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		s := testState()
		ch := s.Apply(e)
		if contract.IsRecovery(e.Kind) {
			continue
		}
		// an incident adds one member alert per link it explains (incident_test.go)
		if len(ch.Firing) != 1+len(e.Links) {
			t.Fatalf("%s: %+v", f, ch)
		}
		for _, l := range []string{LabelAlertname, LabelSrc, LabelDst, LabelSite, LabelSeverity, LabelRole, LabelSource} {
			if ch.Firing[0].Labels[l] == "" {
				t.Errorf("%s: no %s", f, l)
			}
		}
		if !contract.IsAlert(e.Kind) {
			continue
		}
		rec := e
		rec.Kind, rec.TS = contract.RecoveryOf[e.Kind], e.TS+60000
		if got := s.Apply(rec); len(got.Resolved) != 1+len(e.Links) {
			t.Errorf("%s: its recovery resolved %d", f, len(got.Resolved))
		}
	}
}

func TestAlertsMarshalAsAlertmanagerTakesThem(t *testing.T) {
	a := Alert{Labels: map[string]string{"alertname": "x"}, StartsAt: t0, EndsAt: t0.Add(time.Hour)}
	b, _ := json.Marshal([]Alert{a})
	if string(b) != `[{"labels":{"alertname":"x"},"startsAt":"2026-11-24T10:00:00Z","endsAt":"2026-11-24T11:00:00Z"}]` {
		t.Fatal(string(b))
	}
	if r := a.resolved(t0.Add(-time.Minute)); !r.EndsAt.After(r.StartsAt) {
		t.Fatal("a resolution before the start would be refused by Alertmanager")
	}
}

func TestLastOfEachKeepsEachAlertsLastState(t *testing.T) {
	fire := Alert{Labels: map[string]string{"a": "1"}, EndsAt: t0.Add(time.Hour)}
	other := Alert{Labels: map[string]string{"a": "2"}}
	got := lastOfEach([]Alert{fire, other, fire.resolved(t0)})
	if len(got) != 2 || got[0].Labels["a"] != "2" || !got[1].EndsAt.Equal(t0) {
		t.Fatalf("%+v", got)
	}
}

func TestTheHeartbeatEndsThreeRepostsAheadAndIsNeverAnEventsAlert(t *testing.T) {
	h := heartbeat(t0.Add(-time.Hour), t0, 15*time.Second)
	if !h.EndsAt.Equal(t0.Add(45*time.Second)) || !isHeartbeat(h.Labels) || h.Labels[LabelSource] != SourceValue {
		t.Fatalf("%+v", h)
	}
	s := testState()
	s.Apply(ev(contract.KindThroughputCollapse, "s1", "dst-a", 0, "e-1"))
	if s.Has(h.Labels) {
		t.Fatal("the heartbeat is not an open event")
	}
}
