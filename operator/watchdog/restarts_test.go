package watchdog

import (
	"testing"
	"time"
)

func restartsAt(s float64, id string, n int64) *Observations {
	return &Observations{Now: at(s), Flink: FlinkObs{Name: "j", Job: ptr(job(id, "RUNNING", 18, 18, 1)), Restarts: n}}
}

func TestRestartsInALoopAndTheirEnd(t *testing.T) {
	c := &RestartCheck{Window: 10 * time.Minute, Limit: 3}
	steps := []struct {
		s       float64
		n       int64
		healthy bool
	}{
		{0, 5, true},    // restarts before the watchdog looked are not a loop
		{60, 6, true},   // one restart: a TaskManager replaced
		{120, 7, true},  // two
		{180, 8, false}, // three within 10 minutes: a loop
		{600, 8, false}, // still within the window of the first
		{781, 8, true},  // ten minutes without a restart
		{2000, 9, true},
	}
	for _, st := range steps {
		f := c.Judge(restartsAt(st.s, "a", st.n))
		if len(f) != 1 || f[0].Healthy != st.healthy {
			t.Fatalf("at %gs with %d restarts: %+v", st.s, st.n, f)
		}
		// healthy before a whole window was watched is only as far as seen: it closes no alert
		if f[0].Healthy && f[0].Tentative != (st.s < 600) {
			t.Fatalf("at %gs: tentative %v", st.s, f[0].Tentative)
		}
	}
	// a new job (resubmitted) starts a new history
	if f := c.Judge(restartsAt(2010, "b", 0)); !f[0].Healthy || f[0].Evidence["restarts_in_window"] != int64(0) {
		t.Fatalf("%+v", f)
	}
}

func TestRestartsAreNotJudgedWithoutAJob(t *testing.T) {
	c := &RestartCheck{Window: time.Minute, Limit: 1}
	if f := c.Judge(&Observations{Now: at(0)}); len(f) != 0 {
		t.Fatalf("%+v", f)
	}
}

func startedAt(s float64, id string, n int64, started float64) *Observations {
	o := restartsAt(s, id, n)
	o.Flink.Job.Start = at(started).UnixMilli()
	return o
}

func TestAJobStartedWhileWatchedIsKnownFromItsStart(t *testing.T) {
	c := &RestartCheck{Window: 10 * time.Minute, Limit: 3}
	c.Judge(startedAt(0, "a", 0, -3600)) // older than the watchdog: only what is seen
	if f := c.Judge(startedAt(60, "a", 7, -3600)); f[0].Healthy {
		t.Fatalf("a loop of the first job: %+v", f)
	}
	// the keeper resubmitted the job after its JobManager's loss: the new job restarted once
	// since its start, all of which the watchdog saw; its verdict is not tentative
	f := c.Judge(startedAt(200, "b", 1, 150))
	if !f[0].Healthy || f[0].Tentative || f[0].Evidence["restarts_in_window"] != int64(1) {
		t.Fatalf("%+v", f)
	}
	// and the new job's own loop counts its restarts since its start
	if f := c.Judge(startedAt(260, "b", 3, 150)); f[0].Healthy {
		t.Fatalf("%+v", f)
	}
}

func TestAJobOlderThanTheWatchdogIsTentativeForAWindow(t *testing.T) {
	c := &RestartCheck{Window: 10 * time.Minute, Limit: 3}
	if f := c.Judge(startedAt(0, "a", 4, -10)); !f[0].Healthy || !f[0].Tentative {
		t.Fatalf("%+v", f)
	}
}

func TestACountThatWentDownStartsANewHistory(t *testing.T) {
	c := &RestartCheck{Window: 10 * time.Minute, Limit: 3}
	c.Judge(startedAt(0, "a", 5, -100))
	c.Judge(startedAt(60, "a", 8, -100))
	// a JobManager's failover rebuilt the job under its id: its count starts again
	if f := c.Judge(startedAt(120, "a", 0, -100)); !f[0].Healthy || !f[0].Tentative {
		t.Fatalf("%+v", f)
	}
}
