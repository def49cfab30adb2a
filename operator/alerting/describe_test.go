package alerting

import (
	"encoding/json"
	"os"
	"testing"
)

func TestACollapseStatesTheBaselineTheDetectorJudgedItAgainstWithItsSpreadAndRuns(t *testing.T) {
	raw, err := os.ReadFile("../../ingest/schemas/examples/event.v3/valid/throughput-collapse.json")
	if err != nil {
		t.Fatal(err)
	}
	var e Event
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	if got := baselineVsNow(e); got != "baseline 557 Mbit/s ± 30 Mbit/s, now 2.5 Mbit/s (-99.6 %)" {
		t.Fatalf("without the runs: %q", got)
	}
	e.Evidence["history_runs"] = 48.0 // as the collapse detector sends it
	if got := baselineVsNow(e); got != "baseline 557 Mbit/s ± 30 Mbit/s over 48 runs, now 2.5 Mbit/s (-99.6 %)" {
		t.Fatalf("collapse: %q", got)
	}
	recovery := Event{Evidence: map[string]any{"baseline_bps": 5.57e8, "observed_bps": 5.5e8, "low_runs": 3.0}}
	if got := baselineVsNow(recovery); got != "baseline 557 Mbit/s, now 550 Mbit/s (-1.3 %)" {
		t.Fatalf("recovery: %q", got)
	}
}
