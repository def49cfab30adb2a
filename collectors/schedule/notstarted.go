package schedule

import (
	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// NotStarter is implemented by probes that describe a run that never started with their own
// fields (tool, protocol, streams…). Probes that do not implement it get the fallback below.
type NotStarter interface {
	NotStarted(job probe.Job, reason string) []sample.Sample
}

// notStartedSamples is what a run that could not start in its slot publishes: the probe's
// own description if it has one; for an exclusive (throughput) probe a throughput summary with
// error class not_started (tool iperf3, protocol tcp: the kind's defaults); for a background
// probe nothing, the run being counted and logged instead (its sample types need fields the
// scheduler cannot know, e.g. path hops).
func notStartedSamples(t *Task, job probe.Job, reason string) []sample.Sample {
	if ns, ok := t.Probe.(NotStarter); ok {
		return ns.NotStarted(job, reason)
	}
	if !t.Probe.Exclusive() {
		return nil
	}
	s := sample.NewThroughput(job.Src, job.Dst, job.ProbeID, job.RunID, sample.RecordSummary, job.Start.UnixMilli())
	s.Tool, s.Protocol = "iperf3", "tcp"
	target := job.Target
	s.Target = &target
	s.Error = &sample.RunError{Class: sample.ErrNotStarted, Message: truncate(reason, 2000)}
	return []sample.Sample{s}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
