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

// tenMinutes is InfluxDB after a 10-minute demo run: three links with a few 1-minute windows of
// TCP statistics since 06:30, one with loss figures, no hourly statistics, no ping, no events.
// The collapse detector (a minimum history of 5 runs) has judged src-1 → dst-a against a ready
// baseline of 100 Mbit/s, holds 3 runs of src-2 → dst-b, and has published nothing for
// src-3 → dst-c.
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
	baseline := strings.Contains(q, `"window" = 'baseline'`)
	switch {
	case strings.Contains(q, `AS "current"`), strings.Contains(q, `AS "throughput"`):
		return []influx.Series{
			link("src-1", "dst-a", []string{"time", "current", "throughput"}, []any{float64(start), 9e7, 9e7}),
			link("src-2", "dst-b", []string{"time", "current", "throughput"}, []any{float64(start), 5e7, 5e7}),
			link("src-3", "dst-c", []string{"time", "current", "throughput"}, []any{float64(start), 7e7, 7e7}),
		}, nil
	case baseline && strings.Contains(q, `last("runs") AS "runs"`): // ready or not
		return []influx.Series{
			link("src-1", "dst-a", []string{"time", "runs", "needs"}, []any{float64(0), 9.0, 5.0}),
			link("src-2", "dst-b", []string{"time", "runs", "needs"}, []any{float64(0), 3.0, 5.0}),
		}, nil
	case baseline && strings.Contains(q, `GROUP BY "src", "dst"`): // the ready ones
		return []influx.Series{link("src-1", "dst-a", []string{"time", "baseline"}, []any{float64(0), 1e8})}, nil
	case baseline && strings.Contains(q, `"src" = 'src-1' AND "dst" = 'dst-a'`):
		s := minutes(4, 1e8)
		if strings.Contains(q, `"baseline_spread_bps"`) {
			s = minutes(4, 7.4e6)
		}
		s.Tags = map[string]string{"series": "tcp"}
		return []influx.Series{s}, nil
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

func TestTheMatrixDividesByTheCollapseDetectorsBaselineSoALinkItJudgesIsNeverLearning(t *testing.T) {
	doc, db := buildTenMinutes(t)
	g := item(t, doc, "Throughput now ÷ baseline (src × dst)").Grid
	if strings.Join(g.RowNames, ",") != "src-1,src-2,src-3" || strings.Join(g.ColNames, ",") != "dst-a,dst-b,dst-c" {
		t.Fatalf("grid %+v", g)
	}
	if v, ok := g.Cells[[2]string{"src-1", "dst-a"}]; !ok || v != 0.9 {
		t.Fatalf("src-1 → dst-a: 90 Mbit/s now against the detector's 100 Mbit/s: %v (%+v)", v, g.Cells)
	}
	if why, learning := g.Learning[[2]string{"src-1", "dst-a"}]; learning {
		t.Fatalf("a link the detector judges is learning: %s", why)
	}
	if len(g.Cells) != 1 {
		t.Fatalf("cells: %+v", g.Cells)
	}
	asked := false
	for _, q := range db.asked {
		asked = asked || strings.HasPrefix(q, `SELECT last("baseline_bps") AS "baseline" FROM "raw"."link_stats" WHERE "window" = 'baseline' AND "protocol" = 'tcp' AND "baseline_ready" = true`)
	}
	if !asked {
		t.Fatalf("the detector's ready baseline was not asked for: %q", db.asked)
	}
}

func TestAfterTenMinutesTheOtherCellsSayHowManyRunsTheDetectorHasOfTheOnesItNeeds(t *testing.T) {
	doc, _ := buildTenMinutes(t)
	g := item(t, doc, "Throughput now ÷ baseline (src × dst)").Grid
	for k, want := range map[[2]string]string{
		{"src-2", "dst-b"}: "learning baseline: the collapse detector has 3 of the 5 runs it judges with",
		{"src-3", "dst-c"}: "learning baseline: no baseline from the collapse detector yet (it publishes one after each successful run it takes)",
	} {
		if got := g.Learning[k]; got != want {
			t.Errorf("%v: %q", k, got)
		}
	}
	want := "learning baseline for 2 of 3 links: the collapse detector has 3 of the 5 runs it judges with, 1 without a baseline from it yet"
	if g.Why == nil || !g.Why.Learning || g.Why.Text != want {
		t.Fatalf("summary: %+v", g.Why)
	}
	svg := g.SVG()
	if strings.Count(svg, `<text class="learning"`) != 2 || !strings.Contains(svg, "<title>learning baseline: the collapse detector has 3 of the 5 runs") {
		t.Fatalf("cells: %s", svg)
	}
}

func TestTheLinkDetailDrawsTheDetectorsBaselineOrSaysWhatItStillNeeds(t *testing.T) {
	doc, _ := buildTenMinutes(t)
	c := item(t, doc, "Collapse detector's baseline (TCP)").Chart
	if len(c.Lines) != 2 || c.Lines[0].Name != "baseline tcp" || c.Lines[0].Points[0].V != 1e8 ||
		c.Lines[1].Name != "spread tcp" || c.Lines[1].Points[0].V != 7.4e6 || c.Why != nil {
		t.Fatalf("src-1 → dst-a: %+v", c)
	}
	db := &tenMinutes{}
	to := time.Date(2026, 11, 24, 6, 40, 0, 0, time.UTC)
	b := &Report{C: db, Range: dashboards.Range{From: to.Add(-30 * time.Minute), To: to}}
	doc, err := b.Build(context.Background(), dashboardsDir(), "src-2", "dst-b", 8)
	if err != nil {
		t.Fatal(err)
	}
	why, incomplete := item(t, doc, "Collapse detector's baseline (TCP)").State()
	if !incomplete || why == nil || !why.Learning || why.Text != "learning baseline: the collapse detector has 3 of the 5 runs it judges with" {
		t.Fatalf("src-2 → dst-b: %+v", why)
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
		"RTT (ping)": "not measured on this link: no ping samples for src-1 → dst-a in the last 30m",
		"Loss % (UDP, ping); Jitter (UDP, ping mdev)": "not measured on this link: no UDP or ping samples for src-1 → dst-a in the last 30m",
		"Events on this link":                         "no events for src-1 → dst-a in the last 30m",
		"Alert events per link":                       "no alert events in the last 30m",
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
		"  learning  Mesh overview / Throughput now ÷ baseline (src × dst): learning baseline for 2 of 3 links",
		"  learning  Link detail: src-1 → dst-a / Throughput rolling (moving average of 10): learning: moving average of 10 needs 10 points: 4 so far",
		"  empty     Link detail: src-1 → dst-a / RTT (ping): not measured on this link: no ping samples for src-1 → dst-a in the last 30m",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "no data") || strings.Contains(out, "Throughput per 1-minute window") {
		t.Errorf("a panel without a known reason, or one with data, is listed:\n%s", out)
	}
}

// The demo's report drew 10 empty one-way latency charts, two per link, for a kind it never
// measures: a kind without a sample on the link is one line, and no chart is drawn empty of it.
func TestAKindNotMeasuredOnTheLinkIsOneLineNotEmptyCharts(t *testing.T) {
	doc, _ := buildTenMinutes(t)
	link := doc.Sections[len(doc.Sections)-1]
	var notes []string
	for _, it := range link.Items {
		if it.Chart != nil && len(it.Chart.Lines) == 0 && it.Chart.Why != nil && !it.Chart.Why.Learning {
			t.Errorf("an empty chart: %s: %s", it.Chart.Title, it.Chart.Why)
		}
		if it.Note != nil {
			notes = append(notes, it.Note.Why.Text)
		}
	}
	want := "not measured on this link: no one-way latency (pScheduler) samples for src-1 → dst-a in the last 30m"
	if n := strings.Count(strings.Join(notes, "\n"), "one-way latency"); n != 1 || !strings.Contains(strings.Join(notes, "\n"), want) {
		t.Errorf("%d lines about one-way latency, want 1: %q", n, notes)
	}
	var html strings.Builder
	if err := doc.Write(&html); err != nil || !strings.Contains(html.String(), `<p class="empty">`+want) {
		t.Errorf("the line is not in the page (%v)", err)
	}
}
