package alerting

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"longhaul/ingest/contract"
)

// TestTheIndexHoldsEveryOpenKeyAndNoOther: after any run of raises, recoveries with and without
// their episode, notices that expire and pipeline changes, the index equals one built afresh
// from what is open, so no event is sent to an alert that closed or kept from one that is open.
func TestTheIndexHoldsEveryOpenKeyAndNoOther(t *testing.T) {
	kinds := []string{
		contract.KindNoData, contract.KindDataResumed, contract.KindThroughputCollapse,
		contract.KindThroughputRecovery, contract.KindSiteUnreachable, contract.KindSiteReachable,
		contract.KindRouteChange, contract.KindDiagnosis, contract.KindPipelineDegraded,
		contract.KindPipelineRecovered,
	}
	hosts := []string{"a", "b", "c", Wildcard}
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		s := testState()
		now := t0
		s.Now = func() time.Time { return now }
		for i := range 400 {
			now = now.Add(time.Duration(r.IntN(600)) * time.Second)
			e := ev(kinds[r.IntN(len(kinds))], hosts[r.IntN(len(hosts))], hosts[r.IntN(len(hosts))], now.Sub(t0), "")
			if r.IntN(2) == 0 {
				e.EpisodeID = fmt.Sprintf("ep-%d", r.IntN(8))
			}
			e.Evidence["component"] = "flink_job"
			s.Apply(e)
			if i%50 == 0 {
				s.Open() // notices expire
			}
			fresh := &State{open: s.open}
			if got, want := *s.index(), *fresh.index(); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, event %d (%s %s → %s): the index\n%+v\nrebuilt\n%+v", seed, i, e.Kind, e.Src, e.Dst, got, want)
			}
		}
	}
}
