package watchdog

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func lateAt(s float64, id string, n int64) *Observations {
	return &Observations{Now: at(s), Flink: FlinkObs{Name: "j", Job: ptr(job(id, "RUNNING", 18, 18, 1)), Late: n, LateKnown: true}}
}

func TestLateRecordsWarnForAWindowAfterTheLastDrop(t *testing.T) {
	c := &LateCheck{Window: 10 * time.Minute}
	steps := []struct {
		s       float64
		n       int64
		healthy bool
		inWin   int64
	}{
		{0, 40, true, 0},     // drops before the watchdog looked: not judged
		{60, 40, true, 0},    // none since
		{120, 43, false, 3},  // three came late (an agent's spool, a failover)
		{300, 50, false, 10}, // seven more
		{721, 50, false, 7},  // the first three are older than the window
		{901, 50, true, 0},   // ten minutes without one
		{960, 2, false, 2},   // the job restarted: its tasks count from zero, and two came late
	}
	for _, st := range steps {
		f := c.Judge(lateAt(st.s, "a", st.n))
		if len(f) != 1 || f[0].Healthy != st.healthy || f[0].Evidence["late_records_in_window"] != st.inWin {
			t.Fatalf("at %gs with %d late: %+v", st.s, st.n, f)
		}
		if f[0].Healthy && f[0].Tentative != (st.s < 600) {
			t.Fatalf("at %gs: tentative %v", st.s, f[0].Tentative)
		}
		if !f[0].Healthy && (f[0].Severity != SeverityWarning || !strings.Contains(f[0].Message, "missing from the statistics")) {
			t.Fatalf("at %gs: %+v", st.s, f[0])
		}
	}
	// a new job (resubmitted): its count so far is its own history's start
	if f := c.Judge(lateAt(1000, "b", 5)); !f[0].Healthy || f[0].Evidence["late_records_in_window"] != int64(0) {
		t.Fatalf("%+v", f)
	}
}

func TestLateRecordsAreNotJudgedUntilTheJobReportsThem(t *testing.T) {
	c := &LateCheck{Window: time.Minute}
	unknown := lateAt(0, "a", 0)
	unknown.Flink.LateKnown = false
	failed := lateAt(1, "a", 9)
	failed.Flink.LateErr = errors.New("flink: 404")
	for _, o := range []*Observations{{Now: at(0)}, unknown, failed} {
		if f := c.Judge(o); len(f) != 0 {
			t.Fatalf("%+v", f)
		}
	}
	// the first count it reads is where it starts
	if f := c.Judge(lateAt(2, "a", 9)); len(f) != 1 || !f[0].Healthy {
		t.Fatalf("%+v", f)
	}
}
