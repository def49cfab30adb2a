package render

import (
	"strings"
	"testing"
)

func TestALearningChartSaysWhyInsteadOfNoData(t *testing.T) {
	c := chart()
	c.Lines = nil
	c.Why = Learning("learning: moving average of %d needs %d points: %d so far", 10, 10, 4)
	svg := c.SVG()
	if !strings.Contains(svg, `<text class="learning"`) || !strings.Contains(svg, ">learning: moving average of 10 needs 10 points: 4 so far</tspan>") {
		t.Fatal(svg)
	}
	if strings.Contains(svg, "no data") || strings.Contains(svg, `class="series"`) || strings.Contains(svg, "bit/s") {
		t.Fatal("a learning chart draws no series and no value scale: " + svg)
	}
}

func TestAChartWithoutSamplesSaysSoApartFromLearning(t *testing.T) {
	c := chart()
	c.Lines = nil
	c.Why = Empty("no ping samples for src-1 → dst-a in the last 30m")
	svg := c.SVG()
	if !strings.Contains(svg, `<text class="empty"`) || !strings.Contains(svg, "no ping samples for src-1 → dst-a in the last 30m") ||
		strings.Contains(svg, "learning") || strings.Contains(svg, "no data") {
		t.Fatal(svg)
	}
}

func TestALongReasonIsWrappedToTheChart(t *testing.T) {
	c := chart()
	c.Lines = nil
	c.Why = Learning("learning baseline: no hourly statistics yet, 9 1-minute windows so far; the first hourly window closes at 07:00 UTC")
	svg := c.SVG()
	if strings.Count(svg, "<tspan") != 2 || !strings.Contains(svg, ">so far; the first hourly window closes at 07:00 UTC</tspan>") {
		t.Fatal(svg)
	}
}

func TestAGridDrawsLearningCellsWithTheirReason(t *testing.T) {
	g := Grid{Title: "ratio", Unit: "percentunit", RowNames: []string{"src-1"}, ColNames: []string{"dst-a", "dst-b"},
		Cells:    map[[2]string]float64{{"src-1", "dst-b"}: 0.9},
		Learning: map[[2]string]string{{"src-1", "dst-a"}: "learning baseline: 9 1-minute windows so far"}}
	svg := g.SVG()
	if !strings.Contains(svg, `<g class="learning"><title>learning baseline: 9 1-minute windows so far</title>`) ||
		strings.Count(svg, ">learning</text>") != 1 || !strings.Contains(svg, ">90 %</text>") {
		t.Fatal(svg)
	}
}

func TestAnEmptyGridDrawsItsStateAlone(t *testing.T) {
	g := Grid{Title: "loss", Why: Empty("no UDP or ping samples in the last 30m")}
	if svg := g.SVG(); !strings.Contains(svg, `<text class="empty"`) || !strings.Contains(svg, "no UDP or ping samples in the last 30m") || strings.Contains(svg, "no data") {
		t.Fatal(svg)
	}
	if svg := (Grid{Title: "loss"}).SVG(); !strings.Contains(svg, `<text class="nodata"`) || !strings.Contains(svg, ">no data</tspan>") {
		t.Fatal("an empty grid without a reason says no data: " + svg)
	}
}

func TestThePageDrawsEachStateWithItsOwnClass(t *testing.T) {
	doc := Doc{Title: "Longhaul report", From: anchor, To: anchor, Generated: anchor, Source: "test",
		Sections: []Section{{Title: "Mesh", Items: []Item{
			{Grid: &Grid{Title: "ratio", RowNames: []string{"src-1"}, ColNames: []string{"dst-a"},
				Learning: map[[2]string]string{{"src-1", "dst-a"}: "learning baseline: 9 1-minute windows"},
				Why:      Learning("learning baseline for 1 of 1 links: 9 1-minute windows so far")}},
			{Table: &Table{Title: "events", Why: Empty("no alert events in the last 30m")}},
			{Table: &Table{Title: "unknown", Header: []string{"x"}}},
		}}}}
	var b strings.Builder
	if err := doc.Write(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<p class="learning">learning baseline for 1 of 1 links: 9 1-minute windows so far</p>`,
		`class="empty">no alert events in the last 30m</td>`,
		`<td colspan="1">no rows</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("missing %q in\n%s", want, page)
		}
	}
	var out strings.Builder
	if err := WriteStates(&out, &doc); err != nil {
		t.Fatal(err)
	}
	want := "  learning  Mesh / ratio: learning baseline for 1 of 1 links: 9 1-minute windows so far\n" +
		"  empty     Mesh / events: no alert events in the last 30m\n" +
		"  no data   Mesh / unknown: no data\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}
