package watchdog

import (
	"fmt"
	"time"
)

// RestartCheck: the job is not restarting in a loop, i.e. its numRestarts did not rise by Limit
// or more within Window. One restart (a TaskManager lost and replaced) is not a loop; the job
// check reports the tasks it lacks meanwhile.
type RestartCheck struct {
	Window time.Duration
	Limit  int64

	first    time.Time    // the check's first look: jobs started since are known from their start
	job      string       // the job id the history is of
	watched  time.Time    // since when the watchdog has watched that job
	complete bool         // the history goes back to the job's start (numRestarts was 0 there)
	history  []restartObs // oldest first, within Window of the latest
}

type restartObs struct {
	at    time.Time
	count int64
}

// Judge implements Check: nothing when the job or its restarts are unknown (the job check says why).
func (c *RestartCheck) Judge(o *Observations) []Finding {
	if c.first.IsZero() {
		c.first = o.Now
	}
	j := o.Flink.Job
	if o.Flink.Err != nil || j == nil || o.Flink.RestartsErr != nil {
		return nil
	}
	if j.ID != c.job || (len(c.history) > 0 && o.Flink.Restarts < c.history[len(c.history)-1].count) {
		c.begin(j.ID, time.UnixMilli(j.Start), o.Now)
	}
	c.history = append(c.history, restartObs{o.Now, o.Flink.Restarts})
	for len(c.history) > 1 && o.Now.Sub(c.history[0].at) > c.Window {
		c.history = c.history[1:]
	}
	rose := o.Flink.Restarts - c.history[0].count
	f := Finding{Component: ComponentRestarts, Subject: AnySubject, Severity: SeverityCritical, Healthy: rose < c.Limit,
		Tentative: !c.complete && o.Now.Sub(c.watched) < c.Window, // a whole window not watched yet
		Evidence: map[string]any{"job": o.Flink.Name, "job_id": j.ID, "restarts": o.Flink.Restarts,
			"restarts_in_window": rose, "window_s": seconds(c.Window)}}
	if f.Healthy {
		f.Message = fmt.Sprintf("job %s: %d restarts in the last %s (%d in all)", o.Flink.Name, rose, c.Window, o.Flink.Restarts)
	} else {
		f.Message = fmt.Sprintf("job %s is restarting in a loop: %d restarts in the last %s (%d in all)", o.Flink.Name, rose, c.Window, o.Flink.Restarts)
	}
	return []Finding{f}
}

// begin starts the history of a job (a new one, or one whose count went down: a JobManager's
// failover rebuilt it). A job that started while the check was looking has its whole history in
// its numRestarts, counted from 0 at its start: its verdict closes an alert at once, e.g. the
// loop of the job it replaced (the keeper resubmitted it). Of an older job only what was seen.
func (c *RestartCheck) begin(id string, start, now time.Time) {
	c.job, c.history, c.watched, c.complete = id, nil, now, false
	if !start.Before(c.first) && !start.After(now) {
		c.history, c.complete = []restartObs{{start, 0}}, true
	}
}
