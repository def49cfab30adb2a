package throughput

import (
	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// FailedSummary is the one record of a run that produced no usable output: the tool is
// missing, timed out, printed nothing or something unparseable. Its ts is m.Start.
func FailedSummary(m probekit.Meta, q Requested, runErr *sample.RunError) *sample.Throughput {
	r := &runInfo{meta: m, tool: "iperf3"}
	r.fromRequested(q)
	ts := m.Start.UnixMilli()
	rec := r.record(sample.RecordSummary, ts)
	rec.Error = runErr
	return rec
}
