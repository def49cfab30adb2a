package watchdog

import (
	"fmt"
	"time"
)

// CheckpointCheck: the running job's checkpoints complete. Bad when the latest checkpoint that
// ended failed (a newer failure than the newest completion), when failures rose since the last
// cycle while completions did not, or when the newest completed checkpoint (or, before the
// first, the job's start) is older than Intervals × the job's checkpoint interval.
type CheckpointCheck struct {
	Intervals float64 // how many checkpoint intervals without a completion are too many

	job               string
	failed, completed int64
}

// Judge implements Check: nothing unless the job runs with all its tasks (the job check reports
// that) and its statistics were read.
func (c *CheckpointCheck) Judge(o *Observations) []Finding {
	j, cp := o.Flink.Job, o.Flink.Checkpoints
	if o.Flink.Err != nil || j == nil || j.State != "RUNNING" || j.Tasks.Running < j.Tasks.Total {
		return nil
	}
	f := Finding{Component: ComponentCheckpoints, Subject: AnySubject, Severity: SeverityWarning,
		Evidence: map[string]any{"job": o.Flink.Name, "job_id": j.ID}}
	if o.Flink.CheckpointsErr != nil || cp == nil {
		f.Message = fmt.Sprintf("job %s: checkpoint statistics unreadable: %v", o.Flink.Name, o.Flink.CheckpointsErr)
		f.Evidence["error"] = o.Flink.CheckpointsErr
		return []Finding{f}
	}
	grewFailed := j.ID == c.job && cp.Counts.Failed > c.failed && cp.Counts.Completed == c.completed
	c.job, c.failed, c.completed = j.ID, cp.Counts.Failed, cp.Counts.Completed

	f.Evidence["completed"] = cp.Counts.Completed
	f.Evidence["failed"] = cp.Counts.Failed
	f.Evidence["interval_s"] = seconds(cp.Interval)
	newest := time.UnixMilli(j.Start) // before the first completion, the job's start
	if l := cp.Latest.Completed; l != nil {
		newest = time.UnixMilli(l.LatestAck)
		f.Evidence["last_completed_ms"] = l.LatestAck
	}
	age := o.Now.Sub(newest)
	f.Evidence["last_completed_age_s"] = seconds(age)
	var lastFailure time.Time
	if l := cp.Latest.Failed; l != nil {
		lastFailure = time.UnixMilli(l.FailureTime)
		f.Evidence["last_failed_ms"] = l.FailureTime
		f.Evidence["last_failure"] = l.FailureMessage
	}
	limit := time.Duration(c.Intervals * float64(cp.Interval))
	switch {
	case !lastFailure.IsZero() && lastFailure.After(newest):
		f.Message = fmt.Sprintf("job %s: the latest checkpoint failed (%s); %d failed, %d completed",
			o.Flink.Name, cp.Latest.Failed.FailureMessage, cp.Counts.Failed, cp.Counts.Completed)
	case grewFailed:
		f.Message = fmt.Sprintf("job %s: checkpoints failing: %d failed, none completed since the last look", o.Flink.Name, cp.Counts.Failed)
	case cp.Interval > 0 && age > limit:
		f.Message = fmt.Sprintf("job %s: no checkpoint completed for %s (%g × the %s interval)",
			o.Flink.Name, age.Round(time.Second), c.Intervals, cp.Interval)
	default:
		f.Healthy = true
		f.Message = fmt.Sprintf("job %s: last checkpoint completed %s ago", o.Flink.Name, age.Round(time.Second))
	}
	return []Finding{f}
}
