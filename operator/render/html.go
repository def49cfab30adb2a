package render

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"strings"
	"time"
)

// Table is a table panel.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	More   string // a note under the table when rows were left out
	Why    *Why   // why there are no rows; nil: "no rows"
}

// Grid is a src × dst matrix panel, drawn as a heat map of its values.
type Grid struct {
	Title, Unit        string
	RowNames, ColNames []string
	Cells              map[[2]string]float64
	// Good says whether a value is healthy (green) or not (red); nil: neutral colour.
	Good func(float64) bool
	More string // a note under the grid when rows or columns were left out
	// Learning are the cells that have no value yet because the panel is still learning, each
	// with its reason; they are drawn as "learning", not as empty cells.
	Learning map[[2]string]string
	// Why says why cells have no value: under the grid, or instead of it when it has no cells.
	Why *Why
	// Incident are the cells of links an open incident explains, each with its incident: they
	// are outlined, the incident in the cell's tooltip.
	Incident map[[2]string]string
}

// Item is one panel of a section: exactly one of Chart, Grid, Table, Note.
type Item struct {
	Chart *Chart
	Grid  *Grid
	Table *Table
	Note  *Note
}

// Note is one line where panels would show nothing, e.g. a kind not measured on a link: the
// charts of that kind, drawn as one line instead of empty charts.
type Note struct {
	Title string
	Why   *Why
}

// Title is the panel's title.
func (it Item) Title() string {
	switch {
	case it.Chart != nil:
		return it.Chart.Title
	case it.Grid != nil:
		return it.Grid.Title
	case it.Table != nil:
		return it.Table.Title
	case it.Note != nil:
		return it.Note.Title
	}
	return ""
}

// State says whether the panel shows less than all it could (nothing, or a grid's learning
// cells), and why; why is nil when no reason is known ("no data").
func (it Item) State() (why *Why, incomplete bool) {
	switch {
	case it.Chart != nil:
		return it.Chart.Why, len(it.Chart.Lines) == 0
	case it.Grid != nil:
		return it.Grid.Why, len(it.Grid.RowNames) == 0 || it.Grid.Why != nil
	case it.Table != nil:
		return it.Table.Why, len(it.Table.Rows) == 0
	case it.Note != nil:
		return it.Note.Why, true
	}
	return nil, false
}

// Section is one dashboard (or one link of the link dashboard).
type Section struct {
	Title, Subtitle string
	Items           []Item
}

// Doc is the whole report.
type Doc struct {
	Title     string
	From, To  time.Time
	Generated time.Time
	Source    string
	Sections  []Section
}

// SVG draws the grid: one cell per src × dst with its value, row and column names.
func (g Grid) SVG() string {
	const cellW, cellH, labelW, headH = 120, 30, 170, 56
	w := labelW + cellW*len(g.ColNames) + 10
	h := headH + cellH*len(g.RowNames) + 10
	var b strings.Builder
	if len(g.RowNames) == 0 || len(g.ColNames) == 0 { // nothing to lay out: the panel's state alone
		w, h = chartW, 80
		fmt.Fprintf(&b, `<svg class="grid" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
			w, h, w, h, html.EscapeString(g.Title))
		g.Why.svgText(&b, w/2, h/2, 64)
		b.WriteString(`</svg>`)
		return b.String()
	}
	fmt.Fprintf(&b, `<svg class="grid" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		w, h, w, h, html.EscapeString(g.Title))
	for j, c := range g.ColNames {
		fmt.Fprintf(&b, `<text class="head" x="%d" y="%d" text-anchor="start" transform="rotate(-18 %d %d)">%s</text>`,
			labelW+j*cellW+6, headH-8, labelW+j*cellW+6, headH-8, html.EscapeString(shorten(c, 22)))
	}
	for i, r := range g.RowNames {
		y := headH + i*cellH
		fmt.Fprintf(&b, `<text class="head" x="%d" y="%d" text-anchor="end">%s</text>`, labelW-8, y+cellH/2+4, html.EscapeString(shorten(r, 24)))
		for j, c := range g.ColNames {
			x := labelW + j*cellW
			v, ok := g.Cells[[2]string{r, c}]
			fill, label := "#f1f3f5", "–"
			if why, learning := g.Learning[[2]string{r, c}]; learning && !ok {
				fmt.Fprintf(&b, `<g class="learning"><title>%s</title><rect class="cell" x="%d" y="%d" width="%d" height="%d" fill="#fdf3d0"/>`,
					html.EscapeString(why), x+1, y+1, cellW-2, cellH-2)
				fmt.Fprintf(&b, `<text class="learning" x="%d" y="%d" text-anchor="middle">learning</text></g>`, x+cellW/2, y+cellH/2+4)
				continue
			}
			if ok && !math.IsNaN(v) {
				label = FormatValue(v, g.Unit)
				fill = "#cfe3f7"
				if g.Good != nil && g.Good(v) {
					fill = "#b7e1a1"
				} else if g.Good != nil {
					fill = "#f4a6a0"
				}
			}
			inc, marked := g.Incident[[2]string{r, c}]
			if marked {
				fmt.Fprintf(&b, `<g class="incident"><title>%s</title>`, html.EscapeString(inc))
			}
			fmt.Fprintf(&b, `<rect class="cell" x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x+1, y+1, cellW-2, cellH-2, fill)
			fmt.Fprintf(&b, `<text class="value" x="%d" y="%d" text-anchor="middle">%s</text>`, x+cellW/2, y+cellH/2+4, html.EscapeString(label))
			if marked {
				fmt.Fprintf(&b, `<rect class="incident" x="%d" y="%d" width="%d" height="%d"/><text class="incident" x="%d" y="%d">⚑</text></g>`,
					x+2, y+2, cellW-4, cellH-4, x+6, y+12)
			}
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"svg":  func(s string) template.HTML { return template.HTML(s) }, // built with escaped text only
	"time": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:0;background:#f4f5f7;color:#1f2328}
header{background:#161b22;color:#f0f3f6;padding:18px 28px}
header h1{margin:0;font-size:22px;font-weight:600}
header p{margin:4px 0 0;color:#9da7b3;font-size:13px}
section{margin:18px 28px}
section h2{font-size:18px;margin:0 0 2px;font-weight:600}
section .sub{color:#59636e;font-size:12px;margin:0 0 10px}
.panels{display:flex;flex-wrap:wrap;gap:14px}
.panel{background:#fff;border:1px solid #d1d9e0;border-radius:6px;padding:10px 12px}
.panel h3{font-size:13px;margin:0 0 6px;font-weight:600;color:#31373d}
.plot{fill:#fbfbfc;stroke:#d1d9e0}
.grid line,.chart .grid{stroke:#e4e8ec;stroke-width:1}
.tick,.legend{font-size:10px;fill:#59636e}
.series{fill:none;stroke-width:1.8}
circle.series{stroke:none}
.mark{stroke:#d1242f;stroke-width:1.2;stroke-dasharray:4 3}
.nodata,.empty{font-size:13px;fill:#8c959f}
text.learning{font-size:13px;fill:#9a6700;font-style:italic}.grid text.learning{font-size:11px}
p.learning,td.learning{color:#9a6700;font-style:italic}p.empty,td.empty{color:#59636e}
p.learning,p.empty{font-size:12px;margin:6px 0 0;max-width:540px}
.head{font-size:11px;fill:#31373d}.value{font-size:11px;fill:#1f2328}
table{border-collapse:collapse;font-size:11px;max-width:1150px}
th,td{border-bottom:1px solid #e4e8ec;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}
.more{color:#59636e;font-size:11px;margin:6px 0 0}
rect.incident{fill:none;stroke:#8250df;stroke-width:3}text.incident{font-size:10px;fill:#8250df}
footer{color:#8c959f;font-size:11px;margin:18px 28px 28px}
</style></head><body>
<header><h1>{{.Title}}</h1><p>{{time .From}} – {{time .To}} · generated {{time .Generated}} from {{.Source}}</p></header>
{{range .Sections}}<section><h2>{{.Title}}</h2>{{if .Subtitle}}<p class="sub">{{.Subtitle}}</p>{{end}}<div class="panels">
{{range .Items}}{{if .Chart}}<div class="panel"><h3>{{.Chart.Title}}</h3>{{svg .Chart.SVG}}</div>
{{else if .Grid}}<div class="panel"><h3>{{.Grid.Title}}</h3>{{svg .Grid.SVG}}{{if .Grid.Incident}}<p class="more">⚑ outlined: a link an open incident explains (Incidents, above)</p>{{end}}{{if and .Grid.Why .Grid.RowNames}}<p class="{{.Grid.Why.Class}}">{{.Grid.Why}}</p>{{end}}{{if .Grid.More}}<p class="more">{{.Grid.More}}</p>{{end}}</div>
{{else if .Table}}<div class="panel"><h3>{{.Table.Title}}</h3><table><tr>{{range .Table.Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Table.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{else}}<tr><td colspan="{{len .Table.Header}}"{{if .Table.Why}} class="{{.Table.Why.Class}}">{{.Table.Why}}{{else}}>no rows{{end}}</td></tr>{{end}}</table>{{if .Table.More}}<p class="more">{{.Table.More}}</p>{{end}}</div>
{{else if .Note}}<div class="panel"><h3>{{.Note.Title}}</h3><p class="{{.Note.Why.Class}}">{{.Note.Why}}</p></div>
{{end}}{{end}}</div></section>
{{end}}<footer>Longhaul · the same InfluxQL queries as the Grafana dashboards (dashboards/json) · self-contained: no scripts, no external resources</footer>
</body></html>
`))

// Write renders the report as one HTML document.
func (d Doc) Write(w io.Writer) error { return page.Execute(w, d) }
