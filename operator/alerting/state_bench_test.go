package alerting

import (
	"fmt"
	"testing"
	"time"

	"longhaul/ingest/contract"
)

// fleetState is a bridge's state at a fleet's scale: open link alerts of n links (half of them
// towards 20 destinations with a site-wide alert each), and the watchdog's pipeline alert.
func fleetState(n int) *State {
	s := testState()
	for i := range n {
		s.Apply(ev(contract.KindNoData, fmt.Sprintf("fleet-h%04d", i), fmt.Sprintf("fleet-h%04d", (i+1)%n), 0, fmt.Sprintf("nd-%d", i)))
	}
	for d := range 20 {
		s.Apply(ev(contract.KindSiteUnreachable, Wildcard, fmt.Sprintf("fleet-h%04d", d), 0, fmt.Sprintf("su-%d", d)))
	}
	return s
}

// BenchmarkApplyAtFleetScale is one event applied to a state of 2,000 open alerts: a link's
// alert raised again, and the pipeline's state changing (which re-renders every link alert):
// `go test -run XXX -bench ApplyAtFleetScale ./operator/alerting/` (docs/benchmarks.md).
func BenchmarkApplyAtFleetScale(b *testing.B) {
	for _, n := range []int{200, 2000} {
		s := fleetState(n)
		b.Run(fmt.Sprintf("%d/a link's alert", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				s.Apply(ev(contract.KindNoData, fmt.Sprintf("fleet-h%04d", i%n), fmt.Sprintf("fleet-h%04d", (i%n+1)%n), time.Duration(i)*time.Millisecond, fmt.Sprintf("nd-%d", i%n)))
			}
		})
		b.Run(fmt.Sprintf("%d/the pipeline degraded, then recovered", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				kind := contract.KindPipelineDegraded
				if i%2 == 0 {
					kind = contract.KindPipelineRecovered
				}
				e := ev(kind, Wildcard, Wildcard, time.Duration(i)*time.Millisecond, "")
				e.Evidence["component"] = "flink_job"
				s.Apply(e)
			}
		})
	}
}
