package render

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

var anchor = time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)

func chart() Chart {
	from := anchor.Add(-time.Hour).UnixMilli()
	return Chart{Title: "Throughput <tcp>", Unit: "bps", From: from, To: anchor.UnixMilli(),
		Lines: []Line{{Name: "mean", Points: []Point{{from + 60_000, 9e8}, {from + 120_000, 8.8e8}, {from + 180_000, 2e7}}}},
		Marks: []Mark{{T: from + 150_000, Label: "throughput_collapse & more"}}}
}

func TestAChartDrawsEachLineAxesAndEventMarks(t *testing.T) {
	svg := chart().SVG()
	if got := regexp.MustCompile(`<path class="series" d="M[\d.]+ [\d.]+ L[\d.]+ [\d.]+ L[\d.]+ [\d.]+"`).FindAllString(svg, -1); len(got) != 1 {
		t.Fatalf("series path: %v\n%s", got, svg)
	}
	for _, want := range []string{`class="mark"`, "throughput_collapse &amp; more", "Throughput &lt;tcp&gt;", "800 Mbit/s", "05:30"} {
		if !strings.Contains(svg, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestAnEmptyChartSaysSo(t *testing.T) {
	c := chart()
	c.Lines = nil
	if svg := c.SVG(); !strings.Contains(svg, "no data") || strings.Contains(svg, `class="series"`) {
		t.Fatal(svg)
	}
}

func TestUnitsReadLikeGrafanas(t *testing.T) {
	for in, want := range map[[2]any]string{
		{9.12e8, "bps"}: "912 Mbit/s", {140.0, "ms"}: "140 ms", {0.022, "percentunit"}: "2.2 %",
		{10.0, "percent"}: "10 %", {2500.0, ""}: "2.5k",
	} {
		if got := FormatValue(in[0].(float64), in[1].(string)); got != want {
			t.Errorf("%v: got %q want %q", in, got, want)
		}
	}
}

func TestTheReportIsOneSelfContainedPage(t *testing.T) {
	c := chart()
	doc := Doc{Title: "Longhaul report", From: anchor.Add(-time.Hour), To: anchor, Generated: anchor, Source: "test",
		Sections: []Section{{Title: "Link", Items: []Item{
			{Chart: &c},
			{Grid: &Grid{Title: "ratio", Unit: "percentunit", RowNames: []string{"cern"}, ColNames: []string{"fnal", "kek"},
				Cells: map[[2]string]float64{{"cern", "fnal"}: 0.02}, Good: func(v float64) bool { return v > 0.5 }}},
			{Table: &Table{Title: "events", Header: []string{"kind"}, Rows: [][]string{{"<script>"}}}},
		}}}}
	var b strings.Builder
	if err := doc.Write(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<svg class=\"chart\"", "<svg class=\"grid\"", "2 %", "#f4a6a0", "&lt;script&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("missing %q", want)
		}
	}
	if regexp.MustCompile(`(?i)(src|href)\s*=|url\(|<script|@import|<link`).MatchString(page) {
		t.Error("the page loads something external or runs a script")
	}
}
