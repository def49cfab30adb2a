package watchdog

import (
	"testing"
	"time"

	"longhaul/ingest/contract"
)

func TestEpisodesKeepOnlyWhatTheLastWatchdogEventLeftOpen(t *testing.T) {
	job1 := degraded(bad(ComponentJob, "*"), at(0), at(60), "watchdog:flink_job:*:a")
	job1back := recovered(good(ComponentJob, "*"), at(0), at(120), "watchdog:flink_job:*:a")
	job2 := degraded(bad(ComponentJob, "*"), at(200), at(260), "watchdog:flink_job:*:b")
	agentBad := bad(ComponentAgent, "h1")
	agentBad.Evidence = map[string]any{"last_seen_ms": at(-300).UnixMilli(), "limit_s": 180.0}
	agent := degraded(agentBad, at(-100), at(0), "watchdog:agent:h1:c")
	lag := degraded(bad(LagComponent("g"), "*"), at(0), at(10), "watchdog:lag")
	lagBack := recovered(good(LagComponent("g"), "*"), at(0), at(20), "watchdog:lag")
	foreign := job2
	foreign.ProbeID = "collapse-detector"
	foreign.Evidence = map[string]any{"component": "flink_restarts"}
	other := Event{Schema: contract.SchemaEvents, Version: contract.VersionEvents, Kind: contract.KindThroughputCollapse, ProbeID: ProbeID, Evidence: map[string]any{"component": "x"}}
	otherInstance := degraded(bad(ComponentInflux, "*"), at(0), at(60), "watchdog:other:influxdb_writes")
	otherInstance.Evidence[EvidenceInstance] = "longhaul-test-job"
	var recs [][]byte
	for _, e := range []Event{job1, agent, lag, job1back, lagBack, job2, foreign, other} {
		e.Evidence[EvidenceInstance] = "longhaul-link-monitor"
		recs = append(recs, e.Marshal())
	}
	recs = append(recs, otherInstance.Marshal(), []byte("not json"))
	if open := Episodes(recs, "longhaul-test-job"); len(open) != 1 || open[0].Component != ComponentInflux {
		t.Fatalf("the other instance's episodes: %+v", open)
	}
	open := Episodes(recs, "longhaul-link-monitor")
	if len(open) != 2 {
		t.Fatalf("%+v", open)
	}
	byID := map[string]Episode{}
	for _, e := range open {
		byID[e.ID] = e
	}
	j, a := byID["watchdog:flink_job:*:b"], byID["watchdog:agent:h1:c"]
	if j.Component != ComponentJob || j.Subject != "*" || !j.Since.Equal(at(200)) {
		t.Fatalf("job %+v", j)
	}
	if a.Subject != "h1" || !a.Since.Equal(at(-100)) || a.Evidence["since_ms"] != nil || a.Evidence["component"] != nil ||
		a.Evidence[EvidenceInstance] != nil {
		t.Fatalf("agent %+v", a)
	}

	tr, book := NewTracker(0), NewAgentBook(10)
	Resume(tr, book, open)
	views, _ := book.Views()
	if len(views) != 1 || views[0].Host != "h1" || !views[0].LastSeen.Equal(at(-300)) {
		t.Fatalf("the silent agent is not watched again: %+v", views)
	}
	// still silent: no second alert, and no recovery either, though the patience for a host of
	// unknown schedule (15 min) is longer than its silence; the job back: its recovery closes b
	silence := SilenceCheck{Factor: 3, Floor: time.Minute, MinGaps: 3, Patience: 15 * time.Minute}
	o := &Observations{Now: at(400), Agents: views}
	ev := tr.Observe(o.Now, append(silence.Judge(o), good(ComponentJob, "*")))
	if len(ev) != 1 || ev[0].Kind != contract.KindPipelineRecovered || ev[0].EpisodeID != "watchdog:flink_job:*:b" {
		t.Fatalf("%+v", ev)
	}
	if l := silence.Limit(views[0]); l != 180*time.Second {
		t.Fatalf("the remembered limit is not used: %s", l)
	}
}

// After a restart, the lookback shows a silent host's last burst (a stream that stopped): few or
// no gaps, so an unknown schedule and the long patience; its open alert's limit judges it still.
func TestARestartDoesNotTakeASilentHostsLastBurstForAnUnknownSchedule(t *testing.T) {
	f := bad(ComponentAgent, "stream.example.org")
	f.Evidence = map[string]any{"last_seen_ms": at(-200).UnixMilli(), "limit_s": 120.0}
	alert := degraded(f, at(-60), at(-50), "watchdog:x:agent:stream.example.org:1")
	alert.Evidence[EvidenceInstance] = "x"
	tr, book := NewTracker(0), NewAgentBook(10)
	Resume(tr, book, Episodes([][]byte{alert.Marshal()}, "x"))
	for i := 0; i < 30; i++ { // its last half-minute of records, read back from the raw topics
		book.Record("stream.example.org", at(-230+float64(i)), 0, false)
	}
	views, _ := book.Views()
	silence := SilenceCheck{Factor: 3, Floor: 2 * time.Minute, MinGaps: 3, Patience: 15 * time.Minute}
	if ev := tr.Observe(at(0), silence.Judge(&Observations{Now: at(0), Agents: views})); len(ev) != 0 {
		t.Fatalf("a restart closed the silent host's alert: %+v", ev)
	}
	book.Record("stream.example.org", at(1), 0, false)
	views, _ = book.Views()
	if ev := tr.Observe(at(2), silence.Judge(&Observations{Now: at(2), Agents: views})); len(ev) != 1 || ev[0].Kind != contract.KindPipelineRecovered {
		t.Fatalf("its records again do not close it: %+v", ev)
	}
}
