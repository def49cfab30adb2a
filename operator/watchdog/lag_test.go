package watchdog

import (
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

func lagsAt(c *LagCheck, lags ...int64) []Finding {
	var f []Finding
	for i, l := range lags {
		f = c.Judge(&Observations{Now: at(float64(i * 15)), Lags: []GroupLag{{Group: "longhaul-telegraf-stats", Lag: l, Partitions: 4}}})
	}
	return f
}

func TestLagGrowingIsAboveTheMinimumAndNeverShrinking(t *testing.T) {
	for name, c := range map[string]struct {
		lags    []int64
		healthy bool
	}{
		"stuck consumer, input flowing": {[]int64{200, 400, 600, 800}, false},
		"stuck consumer, no input":      {[]int64{500, 500, 500, 500}, false},
		"commits at each checkpoint":    {[]int64{300, 900, 200, 800}, true},
		"idle, markers only":            {[]int64{4, 4, 4, 4}, true},
		"too few looks yet":             {[]int64{500, 600, 700}, true}, // tentatively
		"catching up":                   {[]int64{900, 800, 700, 600}, true},
		"grew, then caught up":          {[]int64{200, 400, 600, 800, 0}, true},
	} {
		f := lagsAt(&LagCheck{Min: 100, Cycles: 4}, c.lags...)
		if len(f) != 1 || f[0].Healthy != c.healthy || f[0].Component != "consumer_lag/longhaul-telegraf-stats" {
			t.Errorf("%s: %+v", name, f)
		}
	}
}

func TestALagAboveTheMinimumIsHealthyOnlyTentativelyUntilEnoughLooks(t *testing.T) {
	if f := lagsAt(&LagCheck{Min: 100, Cycles: 4}, 500, 600, 700); !f[0].Healthy || !f[0].Tentative {
		t.Fatalf("%+v", f)
	}
	if f := lagsAt(&LagCheck{Min: 100, Cycles: 4}, 5); !f[0].Healthy || f[0].Tentative {
		t.Fatalf("a lag under the minimum is healthy for sure: %+v", f)
	}
	if f := lagsAt(&LagCheck{Min: 100, Cycles: 4}, 300, 900, 200, 800); !f[0].Healthy || f[0].Tentative {
		t.Fatalf("a sawtooth seen over enough looks is healthy for sure: %+v", f)
	}
}

func TestALagThatCannotBeReadIsBadAndAGroupWithoutCommitsIsNot(t *testing.T) {
	c := &LagCheck{Min: 100, Cycles: 2}
	f := c.Judge(&Observations{Lags: []GroupLag{{Group: "g", Err: errors.New("COORDINATOR_NOT_AVAILABLE")}, {Group: "h"}}})
	if len(f) != 2 || f[0].Healthy || f[0].Evidence["error"] == nil || !f[1].Healthy {
		t.Fatalf("%+v", f)
	}
}

func TestGroupLagSumsCommittedPartitionsOnly(t *testing.T) {
	d := kadm.DescribedGroupLag{Group: "g", State: "Empty", Lag: kadm.GroupLag{"longhaul.raw.rtt": {
		0: {Topic: "longhaul.raw.rtt", Partition: 0, Commit: kadm.Offset{At: 10}, Lag: 5},
		1: {Topic: "longhaul.raw.rtt", Partition: 1, Commit: kadm.Offset{At: 7}, Lag: 3},
		2: {Topic: "longhaul.raw.rtt", Partition: 2, Commit: kadm.Offset{At: -1}, Lag: 100},
		3: {Topic: "longhaul.raw.rtt", Partition: 3, Commit: kadm.Offset{At: 1}, Lag: -1, Err: errors.New("x")},
	}}}
	if gl := groupLag("g", d); gl.Lag != 8 || gl.Partitions != 2 || gl.Err != nil || gl.State != "Empty" {
		t.Fatalf("%+v", gl)
	}
	if gl := groupLag("g", kadm.DescribedGroupLag{Group: "g", DescribeErr: kerr.GroupIDNotFound}); gl.Err != nil || gl.Partitions != 0 {
		t.Fatalf("a group that never committed: %+v", gl)
	}
	if gl := groupLag("g", kadm.DescribedGroupLag{Group: "g", FetchErr: kerr.CoordinatorNotAvailable}); gl.Err == nil {
		t.Fatal("a fetch error was taken for no lag")
	}
	if gl := groupLag("g", kadm.DescribedGroupLag{}); gl.Err == nil {
		t.Fatal("a group missing from the answer was taken for no lag")
	}
}
