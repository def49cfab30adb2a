package results

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
	"longhaul/operator/render"
)

func dashboardsDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "dashboards", "json")
}

// tenMinutes is InfluxDB after a 10-minute demo run: two links with a few 1-minute windows of
// TCP statistics since 06:30, one with loss figures, no hourly statistics, no ping, no events.
type tenMinutes struct{ asked []string }

func (f *tenMinutes) Query(_ context.Context, q string) ([]influx.Series, error) {
	f.asked = append(f.asked, q)
	start := time.Date(2026, 11, 24, 6, 30, 0, 0, time.UTC).UnixMilli()
	link := func(src, dst string, columns []string, rows ...[]any) influx.Series {
		return influx.Series{Name: "link_stats", Tags: map[string]string{"src": src, "dst": dst}, Columns: columns, Values: rows}
	}
	minutes := func(n int, v float64) influx.Series {
		s := influx.Series{Name: "link_stats", Columns: []string{"time", "v"}}
		for i := 0; i < n; i++ {
			s.Values = append(s.Values, []any{float64(start + int64(i)*60_000), v})
		}
		return s
	}
	switch {
	case strings.Contains(q, `AS "current"`), strings.Contains(q, `AS "throughput"`):
		return []influx.Series{
			link("src-1", "dst-a", []string{"time", "current", "throughput"}, []any{float64(start), 9e7, 9e7}),
			link("src-2", "dst-b", []string{"time", "current", "throughput"}, []any{float64(start), 5e7, 5e7}),
		}, nil
	case strings.Contains(q, `count("throughput_mean_bps") AS "windows" FROM "raw"`):
		return []influx.Series{
			link("src-1", "dst-a", []string{"time", "windows"}, []any{float64(0), 9.0}),
			link("src-2", "dst-b", []string{"time", "windows"}, []any{float64(0), 8.0}),
		}, nil
	case strings.Contains(q, `first("throughput_mean_bps") AS "first" FROM "raw"`):
		return []influx.Series{
			link("src-1", "dst-a", []string{"time", "first"}, []any{float64(start), 9e7}),
			link("src-2", "dst-b", []string{"time", "first"}, []any{float64(start + 60_000), 5e7}),
		}, nil
	case strings.Contains(q, `last("loss_percent")`):
		return []influx.Series{link("src-1", "dst-a", []string{"time", "loss"}, []any{float64(start), 0.0})}, nil
	case strings.Contains(q, `moving_average(`):
		return nil, nil
	case strings.Contains(q, `mean("throughput_mean_bps") AS "rolling"`): // the moving average's inner series
		return []influx.Series{minutes(4, 9e7)}, nil
	case strings.Contains(q, `mean("throughput_mean_bps") AS "mean"`), strings.Contains(q, `sum("retransmits")`):
		return []influx.Series{minutes(4, 9e7)}, nil
	}
	return nil, nil // hourly statistics, ping, UDP, events
}

func buildTenMinutes(t *testing.T) (*render.Doc, *tenMinutes) {
	t.Helper()
	db := &tenMinutes{}
	to := time.Date(2026, 11, 24, 6, 40, 0, 0, time.UTC)
	b := &Report{C: db, Range: dashboards.Range{From: to.Add(-30 * time.Minute), To: to}}
	doc, err := b.Build(context.Background(), dashboardsDir(), "src-1", "dst-a", 8)
	if err != nil {
		t.Fatal(err)
	}
	return doc, db
}

func item(t *testing.T, doc *render.Doc, title string) render.Item {
	t.Helper()
	for _, s := range doc.Sections {
		for _, it := range s.Items {
			if it.Title() == title {
				return it
			}
		}
	}
	t.Fatalf("no panel %q", title)
	return render.Item{}
}

func TestAfterTenMinutesTheBaselineMatrixShowsEachLinkLearningWithItsWindows(t *testing.T) {
	doc, _ := buildTenMinutes(t)
	g := item(t, doc, "Throughput now ÷ baseline (src × dst)").Grid
	if strings.Join(g.RowNames, ",") != "src-1,src-2" || strings.Join(g.ColNames, ",") != "dst-a,dst-b" || len(g.Cells) != 0 {
		t.Fatalf("grid %+v", g)
	}
	want := "learning baseline: no hourly statistics yet, 9 1-minute windows so far; the first hourly window closes at 07:00 UTC"
	if got := g.Learning[[2]string{"src-1", "dst-a"}]; got != want {
		t.Fatalf("src-1 → dst-a: %s", got)
	}
	want = "learning baseline for 2 of 2 links: no hourly statistics yet, 8–9 1-minute windows so far; the first closes at 07:00 UTC"
	if !g.Why.Learning || g.Why.Text != want {
		t.Fatalf("summary: %+v", g.Why)
	}
	svg := g.SVG()
	if strings.Count(svg, `<text class="learning"`) != 2 || !strings.Contains(svg, "<title>learning baseline: no hourly statistics yet, 8 1-minute windows") {
		t.Fatalf("cells: %s", svg)
	}
}

func TestAfterTenMinutesTheRollingAverageCountsItsPoints(t *testing.T) {
	doc, db := buildTenMinutes(t)
	c := item(t, doc, "Throughput rolling (moving average of 10)").Chart
	want := "learning: moving average of 10 needs 10 points: 4 so far (TCP samples for src-1 → dst-a)"
	if c.Why == nil || !c.Why.Learning || c.Why.Text != want {
		t.Fatalf("why: %+v", c.Why)
	}
	counted := false
	for _, q := range db.asked {
		counted = counted || strings.HasPrefix(q, `SELECT mean("throughput_mean_bps") AS "rolling" FROM "raw"."link_stats" WHERE "src" = 'src-1' AND "dst" = 'dst-a'`)
	}
	if !counted {
		t.Fatalf("the inner series was not asked for: %q", db.asked)
	}
}

func TestPanelsWithoutAnySampleSayWhatIsMissing(t *testing.T) {
	doc, _ := buildTenMinutes(t)
	for title, want := range map[string]string{
		"RTT (ping)":            "no ping samples for src-1 → dst-a in the last 30m",
		"Loss % (UDP, ping)":    "no UDP or ping samples for src-1 → dst-a in the last 30m",
		"Events on this link":   "no events for src-1 → dst-a in the last 30m",
		"Alert events per link": "no alert events in the last 30m",
	} {
		why, incomplete := item(t, doc, title).State()
		if !incomplete || why == nil || why.Learning || why.Text != want {
			t.Errorf("%s: %+v", title, why)
		}
	}
	if why, incomplete := item(t, doc, "Throughput per 1-minute window").State(); incomplete || why != nil {
		t.Errorf("a panel with data has no state: %+v", why)
	}
}

func TestTheTextOutputListsEachPanelThatIsLearningOrEmpty(t *testing.T) {
	doc, _ := buildTenMinutes(t)
	var b strings.Builder
	if err := render.WriteStates(&b, doc); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"  learning  Mesh overview / Throughput now ÷ baseline (src × dst): learning baseline for 2 of 2 links",
		"  learning  Link detail: src-1 → dst-a / Throughput rolling (moving average of 10): learning: moving average of 10 needs 10 points: 4 so far",
		"  empty     Link detail: src-1 → dst-a / RTT (ping): no ping samples for src-1 → dst-a in the last 30m",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "no data") || strings.Contains(out, "Throughput per 1-minute window") {
		t.Errorf("a panel without a known reason, or one with data, is listed:\n%s", out)
	}
}
