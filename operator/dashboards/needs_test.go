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
	if r, ok := baseline.Rollup(); !ok || r.Window.Hours() != 1 || r.Finer != "raw" || !baseline.Learning() ||
		baseline.Field != "throughput_mean_bps" || !reflect.DeepEqual(baseline.Protocols, []string{"tcp"}) {
		t.Fatalf("baseline: %+v", baseline)
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

func TestARollupsFinerWindowsAreCountedWithTheSameFilterAndGrouping(t *testing.T) {
	count, first, ok := FinerWindows(`SELECT median("throughput_mean_bps") AS "baseline" FROM "hourly"."link_stats" ` +
		`WHERE "protocol" = 'tcp' AND time > now() - 30d GROUP BY "src", "dst"`)
	if !ok {
		t.Fatal("not a rollup")
	}
	if want := `SELECT count("throughput_mean_bps") AS "windows" FROM "raw"."link_stats" WHERE "protocol" = 'tcp' AND time > now() - 30d GROUP BY "src", "dst"`; count != want {
		t.Fatalf("count: %s", count)
	}
	if want := `SELECT first("throughput_mean_bps") AS "first" FROM "raw"."link_stats" WHERE "protocol" = 'tcp' AND time > now() - 30d GROUP BY "src", "dst"`; first != want {
		t.Fatalf("first: %s", first)
	}
	count, _, _ = FinerWindows(`SELECT mean("x") FROM "daily"."link_stats" WHERE $timeFilter GROUP BY time($__interval), "protocol" fill(none)`)
	if want := `SELECT count("x") AS "windows" FROM "hourly"."link_stats" WHERE $timeFilter GROUP BY "protocol"`; count != want {
		t.Fatalf("daily: %s", count)
	}
	if _, _, ok := FinerWindows(`SELECT last("x") FROM "raw"."link_stats" WHERE $timeFilter`); ok {
		t.Fatal("raw statistics wait for no window")
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
	if learning != 2 { // the baseline matrix and the rolling throughput
		t.Fatalf("%d learning panels", learning)
	}
}
