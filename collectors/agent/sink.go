package agent

import (
	"errors"
	"time"

	"longhaul/collectors/publish"
	"longhaul/collectors/schedule"
	"longhaul/ingest/sample"
)

// sink spools the samples of one run as one batch (one fsync) and counts the run.
func (a *Agent) sink(r schedule.Result) {
	a.sinkMu.Lock()
	defer a.sinkMu.Unlock()
	recs := make([]publish.Record, 0, len(r.Samples))
	dead, lost := 0, 0
	for _, s := range r.Samples {
		sample.ApplyLabels(s, r.Job.Labels)
		sample.ApplyScreens(s, r.Job.Screens)
		sample.ApplyRequest(s, r.Job.RequestID)
		rec, dl, err := a.enc.encode(s)
		if err != nil {
			a.log.Error("sample LOST: cannot encode it", "probe", r.Job.ProbeID, "run_id", r.Job.RunID, "err", err)
			lost++
			continue
		}
		if dl {
			dead++
			a.log.Warn("sample failed validation; spooled as a dead letter", "probe", r.Job.ProbeID,
				"run_id", r.Job.RunID, "schema", s.Head().Schema)
		}
		recs = append(recs, rec)
	}
	if err := a.appendRetry(recs); err != nil {
		a.log.Error("samples LOST: the spool cannot store them", "probe", r.Job.ProbeID, "run_id", r.Job.RunID,
			"samples", len(recs), "err", err)
		lost += len(recs)
		recs = nil
	}
	a.stats.add(len(recs), dead, lost)
	a.stats.record(r)
	if a.opt.Observe != nil {
		a.opt.Observe(r)
	}
}

// appendRetry appends one batch to the spool, trying three times a second apart.
func (a *Agent) appendRetry(recs []publish.Record) error { return a.retry(a.spool.Append, recs) }

// retry stores one batch by appendFn, trying three times a second apart (publish.ErrFull at
// once: a full spool does not empty in a second).
func (a *Agent) retry(appendFn func([]publish.Record) error, recs []publish.Record) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = appendFn(recs); err == nil || errors.Is(err, publish.ErrFull) {
			return err
		}
		a.log.Error("spool append failed; retrying", "attempt", attempt+1, "err", err)
		time.Sleep(time.Second)
	}
	return err
}
