package dashboards

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"longhaul/operator/influx"
)

func dashboardsDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "dashboards", "json")
}

var anchor = time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)

func TestExpandsGrafanaMacrosAndVariables(t *testing.T) {
	r := Range{From: anchor.Add(-24 * time.Hour), To: anchor}
	q, err := Expand(`SELECT mean("x") FROM "raw"."link_stats" WHERE "src" = '$src' AND ("dst" =~ /^$site$/) `+
		`AND $timeFilter GROUP BY time($__interval)`, r, 1000, map[string]string{"src": "cern", "site": "a.b-c"})
	if err != nil {
		t.Fatal(err)
	}
	want := `SELECT mean("x") FROM "raw"."link_stats" WHERE "src" = 'cern' AND ("dst" =~ /^a\.b-c$/) ` +
		`AND time >= 1795154400000ms and time <= 1795240800000ms GROUP BY time(60s)`
	if q != want {
		t.Fatalf("got  %s\nwant %s", q, want)
	}
	q, _ = Expand(`"dst" =~ /^$site$/`, r, 1000, map[string]string{"site": ".*"})
	if q != `"dst" =~ /^.*$/` {
		t.Fatalf("all value: %s", q)
	}
}

func TestSeveralValuesMatchAsGrafanaWritesThem(t *testing.T) {
	r := Range{anchor, anchor}
	q, err := Expand(`("src" =~ /^$site$/ OR "dst" =~ /^$site$/)`, r, 100, map[string]string{"site": Values("a.b", "c|d", "e")})
	if err != nil {
		t.Fatal(err)
	}
	if want := `("src" =~ /^(a\.b|c\|d|e)$/ OR "dst" =~ /^(a\.b|c\|d|e)$/)`; q != want {
		t.Fatalf("got  %s\nwant %s", q, want)
	}
	if q, _ := Expand(`/^$site$/`, r, 100, map[string]string{"site": Values("only")}); q != `/^only$/` {
		t.Fatalf("one value: %s", q)
	}
	// outside a regex several values have no InfluxQL form: an error, never a wrong match
	_, err = Expand(`"src" = '$site'`, r, 100, map[string]string{"site": Values("a", "b")})
	if err == nil || !strings.Contains(err.Error(), "site") {
		t.Fatalf("err = %v", err)
	}
}

func TestAnUndefinedVariableIsAnError(t *testing.T) {
	_, err := Expand(`WHERE "src" = '$src' AND "dst" = '$dst'`, Range{anchor, anchor}, 100, map[string]string{"src": "a"})
	if err == nil || !strings.Contains(err.Error(), "dst") {
		t.Fatalf("err = %v", err)
	}
}

func TestIntervalRoundsLikeGrafana(t *testing.T) {
	for _, c := range []struct {
		span time.Duration
		want time.Duration
	}{{24 * time.Hour, time.Minute}, {time.Hour, 5 * time.Second}, {90 * 24 * time.Hour, 2 * time.Hour}, {time.Minute, 50 * time.Millisecond}} {
		if got := Interval(Range{anchor.Add(-c.span), anchor}, 1000); got != c.want {
			t.Errorf("%v: got %v want %v", c.span, got, c.want)
		}
	}
}

func TestLoadsTheProjectsDashboards(t *testing.T) {
	link, err := LoadUID(dashboardsDir(), "longhaul-link")
	if err != nil {
		t.Fatal(err)
	}
	if len(link.Templating.List) != 2 || link.Templating.List[0].Name != "src" {
		t.Fatalf("variables: %+v", link.Templating.List)
	}
	p := link.Panel("RTT (ping)")
	if p == nil || p.FieldConfig.Defaults.Unit != "ms" || !strings.Contains(p.Targets[0].Query, "$timeFilter") {
		t.Fatalf("panel: %+v", p)
	}
	if _, err := LoadUID(dashboardsDir(), "no-such"); err == nil {
		t.Fatal("unknown uid loaded")
	}
}

func TestFramesMergeDivideAndGroupIntoAMatrix(t *testing.T) {
	a := ToFrame([]influx.Series{
		{Tags: map[string]string{"src": "cern", "dst": "fnal"}, Columns: []string{"time", "current"}, Values: [][]any{{int64(1), 20e6}}},
		{Tags: map[string]string{"src": "cern", "dst": "kek"}, Columns: []string{"time", "current"}, Values: [][]any{{int64(1), 3e8}}},
	}, true)
	b := ToFrame([]influx.Series{
		{Tags: map[string]string{"src": "cern", "dst": "fnal"}, Columns: []string{"time", "baseline"}, Values: [][]any{{int64(0), 9e8}}},
		{Tags: map[string]string{"src": "cern", "dst": "kek"}, Columns: []string{"time", "baseline"}, Values: [][]any{{int64(0), 3e8}}},
	}, true)
	m := Merge(a, b).Divide("ratio", "current", "baseline").ToMatrix("src", "dst", "ratio")
	if len(m.RowNames) != 1 || len(m.ColNames) != 2 {
		t.Fatalf("matrix %+v", m)
	}
	if got := m.Cells[[2]string{"cern", "fnal"}]; got < 0.0222 || got > 0.0223 {
		t.Fatalf("cern→fnal ratio %v", got)
	}
	if got := m.Cells[[2]string{"cern", "kek"}]; got != 1 {
		t.Fatalf("cern→kek ratio %v", got)
	}
}

func TestPanelTransformationsAreReadFromTheDashboard(t *testing.T) {
	mesh, err := LoadUID(dashboardsDir(), "longhaul-mesh")
	if err != nil {
		t.Fatal(err)
	}
	p := mesh.Panels[1] // after the incidents
	calc, grid := p.Transform("calculateField"), p.Transform("groupingToMatrix")
	if calc == nil || calc.Option("binary", "left") != "current" || grid == nil || grid.Option("valueField") != "ratio" {
		t.Fatalf("transformations %+v", p.Transformations)
	}
}

func TestTheEmbeddedDashboardsAreTheFolders(t *testing.T) {
	for _, uid := range []string{"longhaul-mesh", "longhaul-link", "longhaul-alerts"} {
		emb, err := LoadUID("", uid)
		if err != nil {
			t.Fatal(err)
		}
		dir, err := LoadUID(dashboardsDir(), uid)
		if err != nil {
			t.Fatal(err)
		}
		if emb.Title != dir.Title || len(emb.Panels) != len(dir.Panels) {
			t.Errorf("%s: embedded %q with %d panels, folder %q with %d", uid, emb.Title, len(emb.Panels), dir.Title, len(dir.Panels))
		}
	}
}
