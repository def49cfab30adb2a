// Package report renders Longhaul's results as one self-contained HTML page: inline CSS and
// inline SVG charts, no scripts and no external URLs, so it can be opened offline or mailed.
package render

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
	"time"
)

// Point is one value at a time (epoch milliseconds).
type Point struct {
	T int64
	V float64
}

// Line is one named series of a chart.
type Line struct {
	Name   string
	Points []Point
}

// Mark is an annotation: a vertical line at T with a label (an event).
type Mark struct {
	T     int64
	Label string
}

// Chart is a time-series panel.
type Chart struct {
	Title, Unit string
	Lines       []Line
	Marks       []Mark
	From, To    int64
	Why         *Why // why there are no lines; nil: "no data"
}

const (
	chartW, chartH         = 540, 230
	padL, padR, padT, padB = 72, 12, 12, 46
	plotW, plotH           = chartW - padL - padR, chartH - padT - padB
	legendRowH             = 14
)

// Palette is Grafana's classic series palette.
var Palette = []string{"#7EB26D", "#EAB839", "#6ED0E0", "#EF843C", "#E24D42", "#1F78C1", "#BA43A9", "#705DA0"}

// SVG draws the chart: axes with ticks in the chart's unit, one polyline per line, dashed red
// marks for annotations, and a legend.
func (c Chart) SVG() string {
	var b strings.Builder
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range c.Lines {
		for _, p := range l.Points {
			lo, hi = math.Min(lo, p.V), math.Max(hi, p.V)
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	if lo > 0 {
		lo = 0
	}
	ticks := niceTicks(lo, hi, 5)
	lo, hi = ticks[0], ticks[len(ticks)-1]
	if hi == lo {
		hi = lo + 1
	}
	x := func(t int64) float64 { return padL + float64(t-c.From)/float64(max64(c.To-c.From, 1))*plotW }
	y := func(v float64) float64 { return padT + (1-(v-lo)/(hi-lo))*plotH }
	legendRows := (len(c.Lines) + 2) / 3
	h := chartH + legendRows*legendRowH
	fmt.Fprintf(&b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		chartW, h, chartW, h, html.EscapeString(c.Title))
	fmt.Fprintf(&b, `<rect class="plot" x="%d" y="%d" width="%d" height="%d"/>`, padL, padT, plotW, plotH)
	for _, v := range ticks {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, padL, padL+plotW, y(v), y(v))
		if len(c.Lines) > 0 { // an empty chart's 0–1 scale would read as values
			fmt.Fprintf(&b, `<text class="tick" x="%d" y="%.1f" text-anchor="end">%s</text>`, padL-6, y(v)+4, html.EscapeString(FormatValue(v, c.Unit)))
		}
	}
	for _, t := range timeTicks(c.From, c.To, 5) {
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`, x(t), x(t), padT, padT+plotH)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x(t), padT+plotH+16, timeLabel(t, c.To-c.From))
	}
	for _, m := range c.Marks {
		if m.T < c.From || m.T > c.To {
			continue
		}
		fmt.Fprintf(&b, `<line class="mark" x1="%.1f" x2="%.1f" y1="%d" y2="%d"><title>%s</title></line>`,
			x(m.T), x(m.T), padT, padT+plotH, html.EscapeString(m.Label))
	}
	for i, l := range c.Lines {
		pts := append([]Point(nil), l.Points...)
		sort.Slice(pts, func(a, b int) bool { return pts[a].T < pts[b].T })
		var d strings.Builder
		for j, p := range pts {
			cmd := "L"
			if j == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%.1f %.1f ", cmd, x(p.T), y(p.V))
		}
		color := Palette[i%len(Palette)]
		if len(pts) == 1 { // a lone point: draw it as a dot so it is visible
			fmt.Fprintf(&b, `<circle class="series" cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, x(pts[0].T), y(pts[0].V), color)
		}
		fmt.Fprintf(&b, `<path class="series" d="%s" stroke="%s"><title>%s</title></path>`, strings.TrimSpace(d.String()), color, html.EscapeString(l.Name))
		lx, ly := padL+(i%3)*(plotW/3), chartH-8+(i/3)*legendRowH
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="3" fill="%s"/><text class="legend" x="%d" y="%d">%s</text>`,
			lx, ly-4, color, lx+14, ly, html.EscapeString(shorten(l.Name, 28)))
	}
	if len(c.Lines) == 0 {
		c.Why.svgText(&b, padL+plotW/2, padT+plotH/2, 64)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// niceTicks returns about n round values spanning [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var out []float64
	for v := start; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	if out[len(out)-1] < hi {
		out = append(out, out[len(out)-1]+step)
	}
	return out
}

func timeTicks(from, to int64, n int) []int64 {
	span := time.Duration(to-from) * time.Millisecond
	steps := []time.Duration{time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour}
	step := steps[len(steps)-1]
	for _, s := range steps {
		if span/s <= time.Duration(n) {
			step = s
			break
		}
	}
	ms := step.Milliseconds()
	var out []int64
	for t := (from/ms + 1) * ms; t < to; t += ms {
		out = append(out, t)
	}
	return out
}

func timeLabel(t, span int64) string {
	tm := time.UnixMilli(t).UTC()
	if span > 3*24*3600*1000 {
		return tm.Format("Jan 2")
	}
	return tm.Format("15:04")
}
