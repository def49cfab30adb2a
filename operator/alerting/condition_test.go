package alerting

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"longhaul/ingest"
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

// The demo's lab-s1 → dst-a: loss_limited while the carrier hop held the link in an incident
// (muted), then the hop healed. The link's recoveries end the diagnoses they make stale, so the
// incident's end unmutes nothing that is no longer true.
func TestALinksRecoveryEndsTheDiagnosesItMakesStale(t *testing.T) {
	s := testState()
	s.Apply(ev(contract.KindThroughputCollapse, "lab-s1", "dst-a", 0, "ep-1"))
	s.Apply(ev(contract.KindHighLoss, "lab-s1", "dst-a", time.Second, "ep-2"))
	loss := s.Apply(diagnosis("lab-s1", "dst-a", CauseLossLimited, "tcp-1", time.Minute)).Firing[0]
	tuning := s.Apply(diagnosis("lab-s1", "dst-a", "host_tuning_limited", "tcp-1", 2*time.Minute)).Firing[0]
	other := s.Apply(diagnosis("lab-s2", "dst-d", CauseLossLimited, "tcp-1", 2*time.Minute)).Firing[0]

	ch := s.Apply(ev(contract.KindLossRecovery, "lab-s1", "dst-a", 10*time.Minute, "ep-2"))
	if !resolves(ch, loss) || resolves(ch, tuning) || resolves(ch, other) {
		t.Fatalf("recovered loss ends that link's loss_limited alone: resolved %+v", ch.Resolved)
	}
	ch = s.Apply(ev(contract.KindThroughputRecovery, "lab-s1", "dst-a", 11*time.Minute, "ep-1"))
	if !resolves(ch, tuning) || resolves(ch, other) {
		t.Fatalf("recovered throughput ends every diagnosis of its link: resolved %+v", ch.Resolved)
	}
	for _, a := range ch.Resolved {
		if a.Identity() == tuning.Identity() && !a.EndsAt.Equal(t0.Add(11*time.Minute)) {
			t.Errorf("it ends at the recovery: %v", a.EndsAt)
		}
	}
	if open := s.Open(); len(open) != 1 || open[0].Identity() != other.Identity() {
		t.Errorf("open %+v, want lab-s2 → dst-d's diagnosis alone", open)
	}
}

func resolves(ch Change, a Alert) bool {
	for _, r := range ch.Resolved {
		if r.Identity() == a.Identity() {
			return true
		}
	}
	return false
}

func TestTheStaleCauseIsOneOfTheContractsCauses(t *testing.T) {
	name := fmt.Sprintf("%s.v%d.schema.json", contract.SchemaEvents, contract.VersionEvents)
	raw, err := fs.ReadFile(ingest.Schemas(), name)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Cause struct {
				Enum []any `json:"enum"`
			} `json:"cause"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	for _, c := range schema.Properties.Cause.Enum {
		if c == CauseLossLimited {
			return
		}
	}
	t.Errorf("%q is not in %s's cause enum %v", CauseLossLimited, name, schema.Properties.Cause.Enum)
}
