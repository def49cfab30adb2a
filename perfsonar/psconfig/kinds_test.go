package psconfig

import (
	"strings"
	"testing"

	"longhaul/probes/all"
)

// A test type Longhaul takes is either run by an agent (a runner here) or measured by pScheduler,
// never both nor neither; the runners run nothing else.
func TestEveryTestTypeTakenIsRunOrMeasuredByPScheduler(t *testing.T) {
	for _, tt := range all.PSchedulerTests {
		_, runs := runners[tt.Type]
		if runs == tt.ByPScheduler {
			t.Errorf("%s: a runner %v, measured by pScheduler %v", tt.Type, runs, tt.ByPScheduler)
		}
	}
	for typ := range runners {
		if _, ok := all.PSchedulerTestOf(typ); !ok {
			t.Errorf("runner of %q, a test type all.PSchedulerTests does not take", typ)
		}
	}
	want := "it runs " + all.PSchedulerTypes(false) + "; pScheduler's " + all.PSchedulerTypes(true) + " results"
	if got := notRun("dns"); !strings.Contains(got, want) || !strings.Contains(got, `"dns"`) {
		t.Error(got)
	}
}
