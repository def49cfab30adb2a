package watchdog

import (
	"fmt"
	"time"
)

// LateCheck: the job's statistics leave no sample out, i.e. its windows dropped no record as late
// (behind the watermark) within Window. A record is late when it reaches the job more than its
// out-of-orderness behind the partitions still sending: an agent that sends from its spool after
// an outage while the others kept sending, or a partition whose leader failed over. The raw
// sample is kept (in InfluxDB's raw series) and the detectors judge it; the minute's statistics
// lack it. Drops before the watchdog first saw the job are not judged (nobody knows when they
// were); a restarted job's tasks count from zero again.
type LateCheck struct {
	Window time.Duration

	job     string    // the job id the history is of
	watched time.Time // since when the watchdog has watched that job
	last    int64     // the count at the previous look
	history []lateObs // rises, oldest first, within Window of the latest look
}

type lateObs struct {
	at      time.Time
	dropped int64
}

// Judge implements Check: nothing while the count is unknown (no job, its tasks not reporting yet).
func (c *LateCheck) Judge(o *Observations) []Finding {
	j := o.Flink.Job
	if o.Flink.Err != nil || j == nil || o.Flink.LateErr != nil || !o.Flink.LateKnown {
		return nil
	}
	if j.ID != c.job {
		c.job, c.watched, c.last, c.history = j.ID, o.Now, o.Flink.Late, nil
	}
	rose := o.Flink.Late - c.last
	if o.Flink.Late < c.last {
		rose = o.Flink.Late // the tasks restarted and count anew
	}
	c.last = o.Flink.Late
	if rose > 0 {
		c.history = append(c.history, lateObs{o.Now, rose})
	}
	for len(c.history) > 0 && o.Now.Sub(c.history[0].at) > c.Window {
		c.history = c.history[1:]
	}
	var dropped int64
	for _, h := range c.history {
		dropped += h.dropped
	}
	f := Finding{Component: ComponentLate, Subject: AnySubject, Severity: SeverityWarning, Healthy: dropped == 0,
		Tentative: o.Now.Sub(c.watched) < c.Window,
		Evidence: map[string]any{"job": o.Flink.Name, "job_id": j.ID, "late_records": o.Flink.Late,
			"late_records_in_window": dropped, "window_s": seconds(c.Window)}}
	if f.Healthy {
		f.Message = fmt.Sprintf("job %s: no record came behind the watermark in the last %s", o.Flink.Name, c.Window)
	} else {
		f.Message = fmt.Sprintf("job %s: %d records came behind the watermark in the last %s and are missing from the "+
			"statistics (later than the job's --out-of-orderness: an agent sending from its spool, or a broker's failover); "+
			"the raw samples are kept, and each is on the dead-letter topic with the reason", o.Flink.Name, dropped, c.Window)
	}
	return []Finding{f}
}
