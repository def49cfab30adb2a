// Package latency reads the results of pScheduler's one-way latency tests (latency: owping or
// twping; latencybg: powstream) into latency_sample.v1 samples, one per run and direction. The
// agent runs no owamp itself: these results come through the pScheduler bridge
// (perfsonar/psbridge), `longhaul-probe parse --tool pscheduler` and `longhaul import`.
//
// The figures are pScheduler's own: its packet counters as the tool reported them, and the
// one-way delay statistics computed from the result's histogram the way pScheduler's
// latency_utils.Histogram computes them for `pscheduler result` (NIST percentiles over the
// buckets, each key scaled by the test's bucket-width), so what Longhaul shows for a run is
// what perfSONAR's own tools show for it.
package latency
