package watchdog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTheStatusFileIsReplacedWholeAndReadBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "watchdog", "status.json")
	tr := NewTracker(0)
	tr.Observe(at(0), []Finding{bad(ComponentJob, "*"), good(ComponentAgent, "h1")})
	skew := -0.4
	st := Status{Written: at(10).UnixMilli(), Started: at(0).UnixMilli(), Interval: 15, Job: "longhaul-link-monitor",
		States: tr.States(), Agents: []AgentStatus{{Host: "h1", LastSeen: at(5).UnixMilli(), UsualGap: 60, Limit: 180, Skew: &skew, SkewN: 9}}}
	for i := 0; i < 2; i++ {
		if err := WriteStatus(path, st); err != nil {
			t.Fatal(err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".status-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	got, err := ReadStatus(path)
	if err != nil || got.Schema != StatusSchema || len(got.States) != 2 || got.States[0].State != StateDegraded || *got.Agents[0].Skew != -0.4 {
		t.Fatalf("%+v %v", got, err)
	}
	if got.Healthy() {
		t.Fatal("a degraded component, yet healthy")
	}
	if stale, _ := got.Stale(at(40)); stale {
		t.Fatal("stale after 30 s")
	}
	if stale, age := got.Stale(at(100)); !stale || age != 90*time.Second {
		t.Fatal("not stale after 90 s (3 × 15 s, at least a minute)")
	}
	os.WriteFile(path, []byte(`{"schema":"other"}`), 0o644)
	if _, err := ReadStatus(path); err == nil {
		t.Fatal("read a file of another schema")
	}
}

func TestTheTableSaysWhetherMonitoringRunsAndWhatIsDegraded(t *testing.T) {
	tr := NewTracker(0)
	tr.Observe(at(0), []Finding{bad(ComponentJob, "*"), good(ComponentAgent, "h1")})
	skew := 31.5
	st := Status{Written: at(10).UnixMilli(), Interval: 15, Job: "longhaul-link-monitor", Published: 1, Pending: 2,
		Errors: []string{"publishing 2 events: broker away"}, States: tr.States(),
		Agents: []AgentStatus{{Host: "h1", LastSeen: at(5).UnixMilli(), UsualGap: 60, Limit: 180, Skew: &skew, Records: 7, Own: true}}}
	var out strings.Builder
	if err := WriteTable(&out, st, at(20)); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"pipeline DEGRADED (1)", "checked 10s ago", "2 not yet sent", "error: publishing 2 events",
		"flink_job", "degraded", "flink_job is bad", "h1", "its own identity", "+31.5s", "1m0s", "3m0s"} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
	out.Reset()
	WriteTable(&out, st, at(3600))
	if !strings.Contains(out.String(), "WATCHDOG STOPPED") {
		t.Errorf("a stale status does not say monitoring stopped:\n%s", out.String())
	}
}
