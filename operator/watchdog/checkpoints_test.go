package watchdog

import (
	"strings"
	"testing"
	"time"

	"longhaul/operator/flink"
)

// none: no such checkpoint yet
const none = -1e9

func cpObs(s float64, j flink.JobStatus, completed, failed int64, lastAck, lastFail float64) *Observations {
	cp := &flink.Checkpoints{Interval: 5 * time.Second}
	cp.Counts.Completed, cp.Counts.Failed = completed, failed
	if lastAck != none {
		cp.Latest.Completed = &flink.Checkpoint{ID: completed, LatestAck: at(lastAck).UnixMilli()}
	}
	if lastFail != none {
		cp.Latest.Failed = &flink.Checkpoint{ID: completed + failed, FailureTime: at(lastFail).UnixMilli(), FailureMessage: "Checkpoint expired before completing."}
	}
	return &Observations{Now: at(s), Flink: FlinkObs{Name: "j", Job: &j, Checkpoints: cp}}
}

func TestCheckpointsFailingOrStaleAreBad(t *testing.T) {
	running := job("a", "RUNNING", 18, 18, at(-100).UnixMilli())
	c := &CheckpointCheck{Intervals: 10}
	if f := c.Judge(cpObs(0, running, 20, 0, -3, none)); !f[0].Healthy {
		t.Fatalf("healthy: %+v", f)
	}
	if f := c.Judge(cpObs(5, running, 20, 1, -3, 4)); f[0].Healthy || !strings.Contains(f[0].Message, "latest checkpoint failed (Checkpoint expired") {
		t.Fatalf("latest failed: %+v", f)
	}
	if f := c.Judge(cpObs(10, running, 21, 1, 9, 4)); !f[0].Healthy {
		t.Fatalf("a completion after the failure: %+v", f)
	}
	// failures counted, but none in latest (Flink counts some it does not list): failures grew, completions did not
	if f := c.Judge(cpObs(15, running, 21, 3, 9, none)); f[0].Healthy || !strings.Contains(f[0].Message, "none completed since") {
		t.Fatalf("failures grew: %+v", f)
	}
	// no completion for more than 10 intervals (50 s)
	if f := c.Judge(cpObs(70, running, 21, 3, 9, none)); f[0].Healthy || !strings.Contains(f[0].Message, "no checkpoint completed for 1m1s") {
		t.Fatalf("stale: %+v", f)
	}
}

func TestANewJobIsGivenItsIntervalsBeforeItsFirstCheckpoint(t *testing.T) {
	c := &CheckpointCheck{Intervals: 10}
	fresh := job("b", "RUNNING", 18, 18, at(-20).UnixMilli())
	if f := c.Judge(cpObs(0, fresh, 0, 0, none, none)); !f[0].Healthy {
		t.Fatalf("%+v", f)
	}
	if f := c.Judge(cpObs(40, fresh, 0, 0, none, none)); f[0].Healthy {
		t.Fatalf("60 s without a first checkpoint: %+v", f)
	}
}

func TestCheckpointsAreNotJudgedUnlessEveryTaskRuns(t *testing.T) {
	c := &CheckpointCheck{Intervals: 10}
	for _, j := range []flink.JobStatus{job("a", "RUNNING", 3, 18, 0), job("a", "RESTARTING", 0, 18, 0)} {
		if f := c.Judge(cpObs(0, j, 0, 5, none, none)); len(f) != 0 {
			t.Fatalf("%s %d/%d: %+v", j.State, j.Tasks.Running, j.Tasks.Total, f)
		}
	}
}
