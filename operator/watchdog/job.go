package watchdog

import (
	"fmt"

	"longhaul/operator/flink"
)

// JobCheck: the job of the watched name exists and is RUNNING with every one of its tasks
// running (a job RUNNING with 0/18 tasks is what a lost TaskManager leaves). A REST API that
// does not answer is a JobManager down: the job is not known to run.
type JobCheck struct{}

// Judge implements Check.
func (JobCheck) Judge(o *Observations) []Finding {
	f := Finding{Component: ComponentJob, Subject: AnySubject, Severity: SeverityCritical,
		Evidence: map[string]any{"job": o.Flink.Name}}
	j := o.Flink.Job
	switch {
	case o.Flink.Err != nil:
		f.Message = fmt.Sprintf("Flink's REST API does not answer: %v", o.Flink.Err)
		f.Evidence["error"] = o.Flink.Err
	case j == nil:
		f.Message = fmt.Sprintf("no job named %s on the cluster", o.Flink.Name)
		f.Evidence["state"] = "MISSING"
	default:
		f.Evidence["job_id"] = j.ID
		f.Evidence["state"] = j.State
		f.Evidence["tasks_running"] = j.Tasks.Running
		f.Evidence["tasks_total"] = j.Tasks.Total
		switch {
		case j.State != "RUNNING":
			f.Message = fmt.Sprintf("job %s is %s", o.Flink.Name, j.State)
		case j.Tasks.Total == 0 || j.Tasks.Running < j.Tasks.Total:
			f.Message = fmt.Sprintf("job %s is RUNNING with %d of %d tasks running", o.Flink.Name, j.Tasks.Running, j.Tasks.Total)
		default:
			f.Healthy = true
			f.Message = fmt.Sprintf("job %s RUNNING, %d/%d tasks", o.Flink.Name, j.Tasks.Running, j.Tasks.Total)
		}
	}
	return []Finding{f}
}

// PickJob is the job of name the watchdog watches among the cluster's: the newest that has not
// ended, else the newest that has (nil when no job has that name).
func PickJob(jobs []flink.JobStatus, name string) *flink.JobStatus {
	var live, ended *flink.JobStatus
	for i := range jobs {
		j := &jobs[i]
		if j.Name != name {
			continue
		}
		if !flink.Terminal(j.State) {
			if live == nil || j.Start > live.Start {
				live = j
			}
		} else if ended == nil || j.Start > ended.Start {
			ended = j
		}
	}
	if live != nil {
		return live
	}
	return ended
}
