package alerting

import (
	"testing"
	"time"

	"longhaul/ingest/contract"
)

func diagnosis(src, dst, cause, probe string, at time.Duration) Event {
	e := ev(contract.KindDiagnosis, src, dst, at, "")
	e.ProbeID, e.Severity, e.Cause, e.Message = "diagnosis", "warning", cause, cause+" on "+probe
	e.Evidence = map[string]any{"probe": probe}
	return e
}

// The demo's third mail about dst-d listed host-tuning-limited of lab-s2 → dst-d twice (since
// 21:16:18 and since 21:21:52): re-raised, by the same or another probe, it is one alert.
func TestADiagnosisReRaisedForTheSameLinkAndCauseReplacesItsPredecessor(t *testing.T) {
	s := testState()
	first := s.Apply(diagnosis("lab-s2", "dst-d", "host_tuning_limited", "tcp-1", 0)).Firing[0]
	ch := s.Apply(diagnosis("lab-s2", "dst-d", "host_tuning_limited", "tcp-2", 5*time.Minute+34*time.Second))
	if len(ch.Resolved) != 0 || len(ch.Firing) != 1 {
		t.Fatalf("re-raised: resolved %+v, firing %+v", ch.Resolved, ch.Firing)
	}
	again := ch.Firing[0]
	if again.Identity() != first.Identity() {
		t.Fatalf("a second alert for one condition: %v, then %v", first.Labels, again.Labels)
	}
	if first.Labels[LabelProbe] != "diagnosis" || first.Labels[LabelNotice] != "" || first.Labels[LabelCause] != "host_tuning_limited" {
		t.Errorf("a condition's labels are its link, cause and detector: %v", first.Labels)
	}
	if !again.StartsAt.Equal(t0) || again.Annotations[AnnSince] != "2026-11-24T10:00:00Z" {
		t.Errorf("it keeps its predecessor's start: %v %q", again.StartsAt, again.Annotations[AnnSince])
	}
	if again.Annotations[AnnSummary] != "host_tuning_limited on tcp-2" || !again.EndsAt.Equal(t0.Add(65*time.Minute+34*time.Second)) {
		t.Errorf("it says the newest and lives notice-for after it: %q until %v", again.Annotations[AnnSummary], again.EndsAt)
	}
	if open := s.Open(); len(open) != 1 {
		t.Errorf("%d open notices, want 1", len(open))
	}
}

func TestAnotherCauseOrAnExpiredPredecessorIsANewDiagnosis(t *testing.T) {
	s := testState()
	first := s.Apply(diagnosis("lab-s2", "dst-d", "host_tuning_limited", "tcp-1", -2*time.Hour)).Firing[0]
	loss := s.Apply(diagnosis("lab-s2", "dst-d", "loss_limited", "tcp-1", -90*time.Minute)).Firing[0]
	if loss.Identity() == first.Identity() {
		t.Fatal("two causes of one link must be two notices")
	}
	later := s.Apply(diagnosis("lab-s2", "dst-d", "host_tuning_limited", "tcp-1", -30*time.Minute)).Firing[0]
	if !later.StartsAt.Equal(t0.Add(-30 * time.Minute)) {
		t.Errorf("after its predecessor expired a diagnosis starts anew: %v", later.StartsAt)
	}
	if open := s.Open(); len(open) != 1 || open[0].Identity() != later.Identity() {
		t.Errorf("open %+v, want the newest host-tuning-limited only", open)
	}
}

func TestASeverityChangeOfOneConditionResolvesTheAlertItReplaces(t *testing.T) {
	s := testState()
	first := s.Apply(diagnosis("lab-s2", "dst-d", "loss_limited", "tcp-1", 0)).Firing[0]
	worse := diagnosis("lab-s2", "dst-d", "loss_limited", "tcp-1", time.Minute)
	worse.Severity = "critical"
	ch := s.Apply(worse)
	if len(ch.Resolved) != 1 || ch.Resolved[0].Identity() != first.Identity() || ch.Firing[0].Labels[LabelSeverity] != "critical" {
		t.Fatalf("resolved %+v, firing %+v", ch.Resolved, ch.Firing)
	}
	if len(s.Open()) != 1 {
		t.Errorf("open %+v", s.Open())
	}
}
