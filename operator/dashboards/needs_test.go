package dashboards

import (
	"reflect"
	"strings"
	"testing"
)

func TestANeedIsReadFromTheQueryItself(t *testing.T) {
	mesh, err := LoadUID(dashboardsDir(), "longhaul-mesh")
	if err != nil {
		t.Fatal(err)
	}
	link, err := LoadUID(dashboardsDir(), "longhaul-link")
	if err != nil {
		t.Fatal(err)
	}
	baseline := NeedOf(mesh.Panel("Throughput now ÷ baseline (src × dst)").Targets[1].Query)
	if !baseline.Baseline || !baseline.Learning() || baseline.Policy != "raw" ||
		baseline.Field != "baseline_bps" || !reflect.DeepEqual(baseline.Protocols, []string{"tcp"}) {
		t.Fatalf("baseline: %+v", baseline)
	}
	detector := NeedOf(link.Panel("Collapse detector's baseline (TCP)").Targets[1].Query)
	if !detector.Baseline || !detector.Learning() || detector.Field != "baseline_spread_bps" {
		t.Fatalf("the link's baseline chart: %+v", detector)
	}
	if hourly := NeedOf(`SELECT median("throughput_mean_bps") FROM "hourly"."link_stats" WHERE "window" = '1h'`); hourly.Baseline {
		t.Fatalf("only window baseline is the detector's: %+v", hourly)
	}
	rolling := NeedOf(link.Panel("Throughput rolling (moving average of 10)").Targets[0].Query)
	if rolling.Points != 10 || rolling.Policy != "raw" || !rolling.Learning() {
		t.Fatalf("rolling: %+v", rolling)
	}
	loss := NeedOf(link.Panel("Loss % (UDP, ping)").Targets[0].Query)
	if loss.Learning() || !reflect.DeepEqual(loss.Protocols, []string{"udp", "icmp"}) || loss.Measurement != "link_stats" {
		t.Fatalf("loss: %+v", loss)
	}
	alerts := NeedOf(mesh.Panel("Alert events per link").Targets[0].Query)
	if alerts.Measurement != "events" || !alerts.AlertsOnly || alerts.Learning() {
		t.Fatalf("alerts: %+v", alerts)
	}
	if k := NeedOf(`SELECT "message" FROM "daily"."events" WHERE "kind" = 'route_change' AND $timeFilter`); !reflect.DeepEqual(k.Kinds, []string{"route_change"}) || k.Learning() {
		t.Fatalf("events of a kind in the daily policy wait for nothing: %+v", k)
	}
}

func TestTheInnerSeriesOfAMovingAverageIsTheSameQueryWithoutIt(t *testing.T) {
	q := `SELECT moving_average(mean("throughput_mean_bps"), 10) AS "rolling" FROM "raw"."link_stats" WHERE "src" = '$src' GROUP BY time($__interval) fill(none)`
	want := `SELECT mean("throughput_mean_bps") AS "rolling" FROM "raw"."link_stats" WHERE "src" = '$src' GROUP BY time($__interval) fill(none)`
	if got := Inner(q); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestTheDetectorsProgressIsAskedWithTheSameFilterReadyOrNot(t *testing.T) {
	q, ok := BaselineProgress(`SELECT last("baseline_bps") AS "baseline" FROM "raw"."link_stats" ` +
		`WHERE "window" = 'baseline' AND "protocol" = 'tcp' AND "baseline_ready" = true AND time > now() - 30d GROUP BY "src", "dst"`)
	want := `SELECT last("runs") AS "runs", last("baseline_min_runs") AS "needs" FROM "raw"."link_stats" ` +
		`WHERE "window" = 'baseline' AND "protocol" = 'tcp' AND time > now() - 30d GROUP BY "src", "dst"`
	if !ok || q != want {
		t.Fatalf("got  %s\nwant %s", q, want)
	}
	q, _ = BaselineProgress(`SELECT last("baseline_bps") FROM "raw"."link_stats" WHERE "baseline_ready" = true AND "window" = 'baseline' ` +
		`AND $timeFilter GROUP BY time($__interval), "series" fill(none)`)
	want = `SELECT last("runs") AS "runs", last("baseline_min_runs") AS "needs" FROM "raw"."link_stats" ` +
		`WHERE "window" = 'baseline' AND $timeFilter GROUP BY "series"`
	if q != want {
		t.Fatalf("got  %s\nwant %s", q, want)
	}
	if _, ok := BaselineProgress(`SELECT last("throughput_mean_bps") FROM "raw"."link_stats" WHERE $timeFilter`); ok {
		t.Fatal("1-minute statistics are no baseline of the detector")
	}
}

// Grafana's empty panel (noValue, written by dashboards/build_dashboards.py) and the report read
// the same need: a panel whose query the report treats as learning says "learning: " in Grafana
// too, and no other does.
func TestGrafanaSaysLearningForExactlyThePanelsWhoseQueriesNeedHistory(t *testing.T) {
	learning := 0
	for _, uid := range []string{"longhaul-mesh", "longhaul-link", "longhaul-paths", "longhaul-alerts"} {
		d, err := LoadUID(dashboardsDir(), uid)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range d.Panels {
			needs := false
			for _, q := range p.Targets {
				needs = needs || NeedOf(q.Query).Learning()
			}
			said := p.FieldConfig.Defaults.NoValue
			if needs != strings.HasPrefix(said, "learning: ") || said == "" {
				t.Errorf("%s / %s: the query needs history: %v, Grafana says %q", d.Title, p.Title, needs, said)
			}
			if needs {
				learning++
			}
		}
	}
	if learning != 3 { // the baseline matrix, the rolling throughput and the detector's baseline
		t.Fatalf("%d learning panels", learning)
	}
}
