package results

import (
	"testing"
	"time"

	"longhaul/operator/dashboards"
)

var (
	now       = time.Date(2026, 11, 24, 6, 40, 0, 0, time.UTC)
	lastHalf  = dashboards.Range{From: now.Add(-30 * time.Minute), To: now}
	rolling10 = dashboards.Need{Measurement: "link_stats", Policy: "raw", Protocols: []string{"tcp"}, Points: 10}
)

func TestAMovingAverageSaysHowManyPointsItHasOfTheOnesItNeeds(t *testing.T) {
	why := MovingAverage(rolling10, 4, Scope{Src: "src-1", Dst: "dst-a", Range: lastHalf})
	if !why.Learning || why.Text != "learning: moving average of 10 needs 10 points: 4 so far (TCP samples for src-1 → dst-a)" {
		t.Fatalf("%+v", why)
	}
}

func TestAMovingAverageWithoutAnyPointSaysThereAreNoSamples(t *testing.T) {
	why := MovingAverage(rolling10, 0, Scope{Src: "src-1", Dst: "dst-a", Range: dashboards.Range{From: now.Add(-3 * time.Hour), To: now}})
	if why.Learning || why.Text != "no TCP samples for src-1 → dst-a in the last 3h" {
		t.Fatalf("%+v", why)
	}
}

func TestNoSamplesNamesWhatTheQueryReadsAndTheRange(t *testing.T) {
	mesh := Scope{Range: dashboards.Range{From: now.Add(-7 * 24 * time.Hour), To: now}}
	for n, want := range map[*dashboards.Need]string{
		{Measurement: "link_stats", Protocols: []string{"udp", "icmp"}}: "no UDP or ping samples in the last 7d",
		{Measurement: "events", AlertsOnly: true}:                       "no alert events in the last 7d",
		{Measurement: "events", Kinds: []string{"route_change"}}:        "no route_change events in the last 7d",
		{Measurement: "path_hops"}:                                      "no traceroute hops in the last 7d",
	} {
		if got := NoSamples(*n, mesh); got.Learning || got.Text != want {
			t.Errorf("%+v: %+v", n, got)
		}
	}
}

func TestSpansReadLikeSince(t *testing.T) {
	for d, want := range map[time.Duration]string{30 * time.Minute: "30m", 3 * time.Hour: "3h", 24 * time.Hour: "24h", 7 * 24 * time.Hour: "7d", 90 * time.Minute: "90m"} {
		if got := Span(d); got != want {
			t.Errorf("%v: %s", d, got)
		}
	}
}

func TestTheDetectorsBaselineSaysHowManyRunsItHasOfTheOnesItJudgesWith(t *testing.T) {
	one := Progress{Src: "src-1", Dst: "dst-a", Runs: 3, Needs: 10}
	if why := DetectorBaselines([]Progress{one}, 1); !why.Learning || why.Text != "learning baseline: the collapse detector has 3 of the 10 runs it judges with" {
		t.Fatalf("one link: %+v", why)
	}
	none := Progress{Src: "src-2", Dst: "dst-b"}
	want := "learning baseline: no baseline from the collapse detector yet (it publishes one after each successful run it takes)"
	if got := DetectorBaseline(none); got != want {
		t.Fatalf("a link it published nothing for: %s", got)
	}
	several := []Progress{one, {Src: "src-3", Dst: "dst-c", Runs: 7, Needs: 10}}
	if why := DetectorBaselines(several, 4); why.Text != "learning baseline for 2 of 4 links: the collapse detector has 3–7 of the 10 runs it judges with" {
		t.Fatalf("several: %s", why.Text)
	}
	if why := DetectorBaselines([]Progress{none, none}, 2); why.Text != "learning baseline for 2 of 2 links: "+
		"no baseline from the collapse detector yet (it publishes one after each successful run it takes)" {
		t.Fatalf("none published: %s", why.Text)
	}
}
