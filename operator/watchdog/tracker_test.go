package watchdog

import (
	"testing"
	"time"

	"longhaul/ingest/contract"
)

func TestABadSpellShorterThanTheGraceRaisesNothing(t *testing.T) {
	tr := NewTracker(time.Minute)
	for _, s := range []float64{0, 15, 30, 45} {
		if ev := tr.Observe(at(s), []Finding{bad(ComponentJob, "*")}); len(ev) != 0 {
			t.Fatalf("at %gs within the grace: %v", s, ev)
		}
	}
	if ev := tr.Observe(at(55), []Finding{good(ComponentJob, "*")}); len(ev) != 0 {
		t.Fatalf("a flap closed an alert never raised: %v", ev)
	}
	if got := tr.States()[0].State; got != StateHealthy {
		t.Fatalf("state %s", got)
	}
}

func TestAlertAfterTheGraceThenOneRecoveryWithTheSameEpisode(t *testing.T) {
	tr := NewTracker(30 * time.Second)
	tr.Observe(at(0), []Finding{bad(ComponentJob, "*")})
	if tr.States()[0].State != StatePending {
		t.Fatal("not pending within the grace")
	}
	ev := tr.Observe(at(30), []Finding{bad(ComponentJob, "*")})
	if len(ev) != 1 || ev[0].Kind != contract.KindPipelineDegraded {
		t.Fatalf("%v", ev)
	}
	alert := ev[0]
	if alert.Src != "*" || alert.Dst != "*" || alert.ProbeID != ProbeID || componentOf(alert) != ComponentJob ||
		alert.Evidence["since_ms"] != at(0).UnixMilli() || alert.TS != at(30).UnixMilli() || alert.Severity != SeverityWarning {
		t.Fatalf("%+v", alert)
	}
	validEvent(t, alert)
	for _, s := range []float64{45, 60, 600} {
		if ev := tr.Observe(at(s), []Finding{bad(ComponentJob, "*")}); len(ev) != 0 {
			t.Fatalf("raised again at %gs: %v", s, ev)
		}
	}
	ev = tr.Observe(at(615), []Finding{good(ComponentJob, "*")})
	if len(ev) != 1 || ev[0].Kind != contract.KindPipelineRecovered || ev[0].EpisodeID != alert.EpisodeID ||
		ev[0].Severity != SeverityInfo || ev[0].Evidence["degraded_s"] != 615.0 {
		t.Fatalf("%+v", ev)
	}
	validEvent(t, ev[0])
	if ev := tr.Observe(at(630), []Finding{good(ComponentJob, "*")}); len(ev) != 0 {
		t.Fatalf("recovered twice: %v", ev)
	}
	// a new spell is a new episode
	tr.Observe(at(700), []Finding{bad(ComponentJob, "*")})
	ev = tr.Observe(at(730), []Finding{bad(ComponentJob, "*")})
	if len(ev) != 1 || ev[0].EpisodeID == alert.EpisodeID {
		t.Fatalf("second spell: %+v", ev)
	}
}

func TestEachSubjectIsItsOwnEpisodeAndAnUnreportedOneKeepsItsState(t *testing.T) {
	tr := NewTracker(0)
	ev := tr.Observe(at(0), []Finding{bad(ComponentAgent, "a.example.org"), good(ComponentAgent, "b.example.org")})
	if len(ev) != 1 || ev[0].Src != "a.example.org" {
		t.Fatalf("%v", ev)
	}
	// the check could not look at a this cycle: no recovery, no second alert
	if ev := tr.Observe(at(15), []Finding{bad(ComponentAgent, "b.example.org")}); len(ev) != 1 || ev[0].Src != "b.example.org" {
		t.Fatalf("%v", ev)
	}
	st := tr.States()
	if len(st) != 2 || st[0].State != StateDegraded || st[1].State != StateDegraded || st[0].Subject != "a.example.org" {
		t.Fatalf("%+v", st)
	}
}

func TestRestoredEpisodesAreNeitherRaisedAgainNorLeftOpen(t *testing.T) {
	tr := NewTracker(0)
	tr.Restore([]Episode{{Component: ComponentJob, Subject: "*", ID: "watchdog:flink_job:*:1", Since: at(-600), Message: "was bad"},
		{Component: ComponentAgent, Subject: "h1", ID: "watchdog:agent:h1:2", Since: at(-60)}})
	if st := tr.States(); len(st) != 2 || st[0].State != StateDegraded || st[0].Checked != 0 {
		t.Fatalf("%+v", st)
	}
	ev := tr.Observe(at(0), []Finding{bad(ComponentJob, "*"), good(ComponentAgent, "h1")})
	if len(ev) != 1 || ev[0].Kind != contract.KindPipelineRecovered || ev[0].EpisodeID != "watchdog:agent:h1:2" || ev[0].Src != "h1" {
		t.Fatalf("%+v", ev)
	}
}

func TestATentativeHealthyVerdictEndsNoBadSpell(t *testing.T) {
	tr := NewTracker(0)
	tentative := good(ComponentRestarts, "*")
	tentative.Tentative = true
	if ev := tr.Observe(at(0), []Finding{tentative}); len(ev) != 0 || tr.States()[0].State != StateHealthy {
		t.Fatalf("a tentative healthy component is not healthy: %+v", tr.States())
	}
	tr.Restore([]Episode{{Component: ComponentRestarts, Subject: "*", ID: "e", Since: at(-900), Message: "looping"}})
	if ev := tr.Observe(at(15), []Finding{tentative}); len(ev) != 0 {
		t.Fatalf("a restarted watchdog closed an alert on too little history: %+v", ev)
	}
	if st := tr.States()[0]; st.State != StateDegraded || st.Message != "looping" || st.Checked != at(15).UnixMilli() {
		t.Fatalf("%+v", st)
	}
	if ev := tr.Observe(at(30), []Finding{good(ComponentRestarts, "*")}); len(ev) != 1 || ev[0].EpisodeID != "e" {
		t.Fatalf("%+v", ev)
	}
}

func TestStatesListTheDegradedFirst(t *testing.T) {
	tr := NewTracker(time.Minute)
	tr.Observe(at(0), []Finding{good(ComponentAgent, "a"), bad(ComponentInflux, "*"), bad(ComponentJob, "*")})
	tr.Observe(at(60), []Finding{good(ComponentAgent, "a"), good(ComponentInflux, "*"), bad(ComponentJob, "*")})
	st := tr.States()
	if st[0].Component != ComponentJob || st[0].State != StateDegraded || st[0].Severity == "" || st[0].Since != at(0).UnixMilli() {
		t.Fatalf("%+v", st)
	}
}
