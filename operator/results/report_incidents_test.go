package results

import (
	"context"
	"strings"
	"testing"
	"time"

	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
)

// withIncident is the ten-minute run with one open incident at a hop, explaining src-1 → dst-a.
type withIncident struct{ tenMinutes }

func (f *withIncident) Query(ctx context.Context, q string) ([]influx.Series, error) {
	if !strings.Contains(q, "'incident_opened'") {
		return f.tenMinutes.Query(ctx, q)
	}
	start := float64(time.Date(2026, 11, 24, 6, 35, 0, 0, time.UTC).UnixMilli())
	return []influx.Series{{Name: "events", Columns: []string{"time", "episode_id", "kind", "severity", "location_type", "location", "asn", "since_ms", "links", "message"},
		Values: [][]any{{start, "inc-1", "incident_opened", "critical", "hop", "198.18.50.1", 64512.0, start,
			"src-1 → dst-a (throughput_collapse); src-9 → dst-z (unreachable)", "2 of 2 measured links through hop 198.18.50.1 (AS 64512) are degraded"}}}}, nil
}

func TestTheReportOpensWithTheIncidentsAndMarksTheirLinksInTheMatrices(t *testing.T) {
	to := time.Date(2026, 11, 24, 6, 40, 0, 0, time.UTC)
	b := &Report{C: &withIncident{}, Range: dashboards.Range{From: to.Add(-30 * time.Minute), To: to}}
	doc, err := b.Build(context.Background(), dashboardsDir(), "src-1", "dst-a", 8)
	if err != nil {
		t.Fatal(err)
	}
	first := doc.Sections[0]
	if first.Title != "Incidents" || len(first.Items) != 1 || first.Items[0].Table == nil {
		t.Fatalf("first section %+v", first)
	}
	row := first.Items[0].Table.Rows[0]
	want := []string{"OPEN (critical)", "hop 198.18.50.1 (AS 64512)", "2026-11-24 06:35",
		"src-1 → dst-a (throughput_collapse); src-9 → dst-z (unreachable)",
		"2 of 2 measured links through hop 198.18.50.1 (AS 64512) are degraded", "longhaul silence --incident inc-1 --for 2h --comment TEXT"}
	if strings.Join(row, "|") != strings.Join(want, "|") {
		t.Errorf("row\n%q\nwant\n%q", row, want)
	}
	for _, it := range doc.Sections[1].Items {
		if it.Table != nil && strings.HasPrefix(it.Table.Title, "Incidents") {
			t.Errorf("the overview draws the incidents again: %s", it.Table.Title)
		}
	}
	grid := item(t, doc, "Throughput now ÷ baseline (src × dst)").Grid
	if !strings.Contains(grid.Incident[[2]string{"src-1", "dst-a"}], "hop 198.18.50.1") || !strings.Contains(grid.SVG(), `<rect class="incident"`) {
		t.Errorf("the incident's link is not marked: %v", grid.Incident)
	}
	if _, ok := grid.Incident[[2]string{"src-2", "dst-b"}]; ok {
		t.Error("a link outside the incident is marked")
	}
}

func TestWithoutIncidentsTheFirstSectionSaysSo(t *testing.T) {
	doc, _ := buildTenMinutes(t)
	tb := doc.Sections[0].Items[0].Table
	if doc.Sections[0].Title != "Incidents" || len(tb.Rows) != 0 || tb.Why.String() != "no incidents in the last 30m" {
		t.Fatalf("%+v %v", doc.Sections[0], tb.Why)
	}
}

// The fleet benchmark's carrier hop held 185 links: the report names eight and counts the rest,
// so its charts stay in sight; `longhaul incidents` lists them all.
func TestAnIncidentOfManyLinksNamesEightAndCountsTheRest(t *testing.T) {
	inc := Incident{Location: "hop 10.255.0.1", Open: true}
	for i := range 185 {
		inc.Links = append(inc.Links, IncidentLink{Src: "fleet-h0001", Dst: "fleet-h" + strings.Repeat("0", 3) + string(rune('0'+i%10)), Kinds: []string{"high_loss"}})
	}
	got := linkLines(inc)
	if n := strings.Count(got, " → "); n != 8 {
		t.Errorf("%d links named, want 8: %s", n, got)
	}
	if !strings.HasSuffix(got, "; and 177 more (longhaul incidents lists them all)") {
		t.Errorf("the rest not counted: %s", got)
	}
	inc.Links = inc.Links[:8]
	if got := linkLines(inc); strings.Contains(got, "more") || strings.Count(got, " → ") != 8 {
		t.Errorf("eight links are named whole: %s", got)
	}
}
