package setup

import (
	"fmt"
	"testing"
	"time"

	"longhaul/perfsonar/psbridge"
)

// The HTTP archiver retries a result by ArchiveRetry, possibly to another bridge behind the same
// name: every bridge must still know it was converted, which it does for psbridge.SeenHorizon.
func TestTheArchiversRetriesEndWithinTheBridgesSharedHorizon(t *testing.T) {
	var span time.Duration
	for _, step := range ArchiveRetry {
		wait, err := isoMinutes(step["wait"].(string))
		if err != nil {
			t.Fatal(err)
		}
		span += time.Duration(step["attempts"].(int)) * wait
	}
	if span == 0 || span > psbridge.SeenHorizon {
		t.Fatalf("the retries span %s, the bridges share what they converted for %s", span, psbridge.SeenHorizon)
	}
}

// isoMinutes reads the retry policy's waits (PT1M, PT10M).
func isoMinutes(s string) (time.Duration, error) {
	var m int
	_, err := fmt.Sscanf(s, "PT%dM", &m)
	return time.Duration(m) * time.Minute, err
}
