package watchdog

import (
	"errors"
	"strings"
	"testing"

	"longhaul/operator/flink"
)

func job(id, state string, running, total int, start int64) flink.JobStatus {
	j := flink.JobStatus{Tasks: flink.Tasks{Running: running, Total: total}}
	j.ID, j.Name, j.State, j.Start = id, "longhaul-link-monitor", state, start
	return j
}

func judgeJob(fo FlinkObs) Finding {
	fo.Name = "longhaul-link-monitor"
	return JobCheck{}.Judge(&Observations{Now: at(0), Flink: fo})[0]
}

func TestTheJobIsHealthyOnlyRunningWithEveryTask(t *testing.T) {
	running := job("a", "RUNNING", 18, 18, 1)
	if f := judgeJob(FlinkObs{Job: &running}); !f.Healthy || f.Evidence["tasks_running"] != 18 {
		t.Fatalf("%+v", f)
	}
	for name, c := range map[string]struct {
		fo   FlinkObs
		want string
	}{
		"lost TaskManager": {FlinkObs{Job: ptr(job("a", "RUNNING", 0, 18, 1))}, "RUNNING with 0 of 18 tasks"},
		"no tasks yet":     {FlinkObs{Job: ptr(job("a", "RUNNING", 0, 0, 1))}, "0 of 0"},
		"restarting":       {FlinkObs{Job: ptr(job("a", "RESTARTING", 0, 18, 1))}, "is RESTARTING"},
		"failed":           {FlinkObs{Job: ptr(job("a", "FAILED", 0, 18, 1))}, "is FAILED"},
		"missing":          {FlinkObs{}, "no job named longhaul-link-monitor"},
		"jobmanager down":  {FlinkObs{Err: errors.New("connection refused")}, "does not answer: connection refused"},
	} {
		f := judgeJob(c.fo)
		if f.Healthy || !strings.Contains(f.Message, c.want) || f.Severity != SeverityCritical || f.Component != ComponentJob {
			t.Errorf("%s: %+v", name, f)
		}
	}
}

func TestPickJobPrefersTheLiveOneThenTheNewestEnded(t *testing.T) {
	jobs := []flink.JobStatus{job("old", "CANCELED", 0, 18, 1), job("new", "FAILED", 0, 18, 3), job("live", "RUNNING", 18, 18, 2)}
	other := job("x", "RUNNING", 1, 1, 9)
	other.Name = "another-job"
	jobs = append(jobs, other)
	if j := PickJob(jobs, "longhaul-link-monitor"); j == nil || j.ID != "live" {
		t.Fatalf("%+v", j)
	}
	if j := PickJob(jobs[:2], "longhaul-link-monitor"); j == nil || j.ID != "new" {
		t.Fatalf("%+v", j)
	}
	if PickJob(jobs, "nope") != nil {
		t.Fatal("found a job of another name")
	}
}

func ptr[T any](v T) *T { return &v }
