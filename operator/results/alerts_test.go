package results

import (
	"strings"
	"testing"

	"longhaul/ingest/contract"
)

func TestAnAlertStaysOpenUntilItsRecoveryOnTheSameLink(t *testing.T) {
	events := []Event{
		{T: 1, Src: "cern", Dst: "fnal", Kind: "throughput_collapse"},
		{T: 2, Src: "cern", Dst: "kek", Kind: "unreachable"},
		{T: 3, Src: "cern", Dst: "kek", Kind: "throughput_recovery"}, // another link's recovery
		{T: 4, Src: "cern", Dst: "kek", Kind: "reachable"},
		{T: 5, Src: "cern", Dst: "fnal", Kind: "route_change"}, // not an alert with an episode
		{T: 6, Src: "cern", Dst: "triumf", Kind: "high_loss"},
	}
	var kinds []string
	for _, e := range OpenAlerts(events, contract.Closes) {
		kinds = append(kinds, e.Dst+":"+e.Kind)
	}
	if got := strings.Join(kinds, ","); got != "fnal:throughput_collapse,triumf:high_loss" {
		t.Fatalf("open: %s", got)
	}
}
