package agent

import (
	"testing"
	"time"

	"longhaul/collectors/schedule"
	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// A failed run of any kind counts as failed in the health, by its error class: each kind's sample
// says its own failure (sample.Sample's Run), so none is left out (latency was, while a list of
// kinds here said which samples carry an error).
func TestAFailedRunOfEveryKindCountsByItsErrorClass(t *testing.T) {
	failure := &sample.RunError{Class: sample.ErrorClass("timeout"), Message: "no answer"}
	th := sample.NewThroughput("a", "b", "tput", "r1", sample.RecordSummary, 1)
	th.Error = failure
	pa := sample.NewPath("a", "b", "path", "r2", 1)
	pa.Error = failure
	rt := sample.NewRTT("a", "b", "rtt", "r3", 1)
	rt.Error = failure
	la := sample.NewLatency("a", "b", "owd", "r4", 1)
	la.Error = failure
	s := newRunStats(nil)
	for _, smp := range []sample.Sample{th, pa, rt, la} {
		s.record(schedule.Result{Job: probe.Job{ProbeID: smp.Head().ProbeID}, Kind: "k", Samples: []sample.Sample{smp}, Ended: time.Unix(1, 0)})
	}
	// a host snapshot records no failure: its run succeeded
	s.record(schedule.Result{Job: probe.Job{ProbeID: "host"}, Kind: "host", Samples: []sample.Sample{sample.NewHost("a", "b", "host", 1)}, Ended: time.Unix(1, 0)})
	probes, _ := s.snapshot()
	for _, id := range []string{"tput", "path", "rtt", "owd"} {
		p := probes[id]
		if p.Runs != 1 || p.Errors["timeout"] != 1 || p.LastError != "no answer" || p.LastSuccess != nil {
			t.Errorf("%s: %+v, want one run failed by timeout", id, p)
		}
	}
	if h := probes["host"]; h.LastSuccess == nil || len(h.Errors) != 0 {
		t.Errorf("host: %+v, want a success", h)
	}
}
