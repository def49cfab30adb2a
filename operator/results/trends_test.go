package results

import (
	"strings"
	"testing"
	"time"
)

func TestTrendsReadThePolicyOfTheBucketSizeThenFinerOnes(t *testing.T) {
	if PolicyFor(24*time.Hour) != "daily" || PolicyFor(time.Hour) != "hourly" || PolicyFor(10*time.Minute) != "raw" {
		t.Fatal(PolicyFor(24*time.Hour), PolicyFor(time.Hour), PolicyFor(10*time.Minute))
	}
	if got := strings.Join(Fallback("daily"), ","); got != "daily,hourly,raw" {
		t.Fatal(got)
	}
	if got := strings.Join(Fallback("hourly"), ","); got != "hourly,raw" {
		t.Fatal(got)
	}
}

func TestQuotesInNamesCannotBreakTheQuery(t *testing.T) {
	if Escape(`a'b\c`) != `a\'b\\c` {
		t.Fatal(Escape(`a'b\c`))
	}
}
