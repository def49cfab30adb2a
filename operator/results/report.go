package results

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"longhaul/ingest/contract"
	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
	"longhaul/operator/render"
)

// A mailed report stays readable: tables show at most maxTableRows rows, matrices at most
// maxGridSide sources and destinations, each saying how much more there is.
const (
	maxTableRows = 25
	maxGridSide  = 12
)

// Report assembles the report's sections from the dashboards' panels over one time range, for
// every link or for some sites' (Sites: the links whose source or destination is one of them, a
// mesh's when they are its hosts).
type Report struct {
	C     Querier
	Range dashboards.Range
	Sites []string
}

// siteVars are the Mesh overview's variables: the report's sites, or all of them.
func (b *Report) siteVars() map[string]string { return dashboards.FleetVars(b.Sites...) }

// The dashboards the report draws.
const (
	MeshDashboard = "longhaul-mesh"
	LinkDashboard = "longhaul-link"
)

// Build draws the incidents (open first), the mesh overview with the open incidents' links
// marked in its matrices, then a link section for src → dst, or for each link of the
// overview's link list (at most maxLinks).
func (b *Report) Build(ctx context.Context, dir, src, dst string, maxLinks int) (*render.Doc, error) {
	mesh, err := dashboards.LoadUID(dir, MeshDashboard)
	if err != nil {
		return nil, err
	}
	link, err := dashboards.LoadUID(dir, LinkDashboard)
	if err != nil {
		return nil, err
	}
	doc := &render.Doc{Title: "Longhaul report", From: b.Range.From, To: b.Range.To}
	incidents, err := incidentsOf(ctx, b.C, mesh, b.Range)
	if err != nil {
		return nil, fmt.Errorf("%s / incidents: %w", mesh.Title, err)
	}
	doc.Sections = append(doc.Sections, IncidentSection(incidents, Scope{Range: b.Range})) // incidents first
	marked := incidentCells(incidents)
	overview := render.Section{Title: mesh.Title, Subtitle: mesh.Description}
	var links [][2]string
	for _, p := range mesh.Panels {
		if dashboards.IsIncidentList(&p) { // drawn first, folded, above
			continue
		}
		item, frame, err := b.tablePanel(ctx, p, Scope{Sites: b.Sites, Range: b.Range}, b.siteVars())
		if err != nil {
			return nil, fmt.Errorf("%s / %s: %w", mesh.Title, p.Title, err)
		}
		if item.Grid != nil {
			item.Grid.Incident = marked
		}
		overview.Items = append(overview.Items, item)
		if dashboards.IsLinkList(&p) { // every link with statistics in the range
			links = linksOf(frame)
		}
	}
	doc.Sections = append(doc.Sections, overview)
	if src != "" {
		links = [][2]string{{src, dst}}
	}
	if len(links) > maxLinks {
		links = links[:maxLinks]
	}
	for _, l := range links {
		s, err := b.linkSection(ctx, link, l[0], l[1])
		if err != nil {
			return nil, err
		}
		doc.Sections = append(doc.Sections, s)
	}
	return doc, nil
}

func linksOf(f dashboards.Frame) [][2]string {
	si, di := f.Col("src"), f.Col("dst")
	var out [][2]string
	if si < 0 || di < 0 {
		return nil
	}
	for _, r := range f.Rows {
		out = append(out, [2]string{influx.Str(r[si]), influx.Str(r[di])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0]+out[i][1] < out[j][0]+out[j][1] })
	return out
}

func (b *Report) linkSection(ctx context.Context, d *dashboards.Dashboard, src, dst string) (render.Section, error) {
	vars := map[string]string{"src": src, "dst": dst}
	scope := Scope{Src: src, Dst: dst, Range: b.Range}
	sec := render.Section{Title: fmt.Sprintf("%s: %s → %s", d.Title, src, dst), Subtitle: d.Description}
	var marks []render.Mark
	for _, a := range d.Annotations.List {
		if a.Target == nil {
			continue
		}
		series, err := Run(ctx, b.C, a.Target.Query, b.Range, vars)
		if err != nil {
			return sec, fmt.Errorf("annotation %s: %w", a.Name, err)
		}
		for _, s := range series {
			mi := s.Col("text") // Grafana shows the "text" column of an annotation query
			for _, row := range s.Values {
				marks = append(marks, render.Mark{T: s.Millis(row), Label: influx.Str(row[mi])})
			}
		}
	}
	var missing notMeasured
	for _, p := range d.Panels {
		if p.Type == "table" {
			item, _, err := b.tablePanel(ctx, p, scope, vars)
			if err != nil {
				return sec, fmt.Errorf("%s / %s: %w", d.Title, p.Title, err)
			}
			sec.Items = append(sec.Items, item)
			continue
		}
		chart := &render.Chart{Title: p.Title, Unit: p.FieldConfig.Defaults.Unit, Marks: marks,
			From: b.Range.From.UnixMilli(), To: b.Range.To.UnixMilli()}
		found := make([]bool, len(p.Targets))
		for i, t := range p.Targets {
			series, err := Run(ctx, b.C, t.Query, b.Range, vars)
			if err != nil {
				return sec, fmt.Errorf("%s / %s: %w", d.Title, p.Title, err)
			}
			lines := Lines(series, t.Alias)
			found[i] = len(lines) > 0
			chart.Lines = append(chart.Lines, lines...)
		}
		if n, ok := unmeasured(p.Targets, found); ok && len(chart.Lines) == 0 {
			missing.add(n, p.Title) // one line per kind, not an empty chart per panel
			continue
		}
		if len(chart.Lines) == 0 {
			why, err := b.explain(ctx, p.Targets, found, scope, vars)
			if err != nil {
				return sec, fmt.Errorf("%s / %s: %w", d.Title, p.Title, err)
			}
			chart.Why = why
		}
		sec.Items = append(sec.Items, render.Item{Chart: chart})
	}
	sec.Items = append(sec.Items, missing.items(scope)...)
	return sec, nil
}

// tablePanel runs a table panel's queries and applies its transformations (merge,
// calculateField, groupingToMatrix) like Grafana: a matrix becomes a grid, the rest a table.
// An empty one, or a matrix with cells still learning, says why.
func (b *Report) tablePanel(ctx context.Context, p dashboards.Panel, scope Scope, vars map[string]string) (render.Item, dashboards.Frame, error) {
	var frames []dashboards.Frame
	found := make([]bool, len(p.Targets))
	for i, t := range p.Targets {
		series, err := Run(ctx, b.C, t.Query, b.Range, vars)
		if err != nil {
			return render.Item{}, dashboards.Frame{}, err
		}
		aggregated := !strings.Contains(t.Query, "GROUP BY time") && strings.Contains(t.Query, "GROUP BY")
		frames = append(frames, dashboards.ToFrame(series, aggregated))
		found[i] = len(frames[i].Rows) > 0
	}
	f := dashboards.Merge(frames...)
	if c := p.Transform("calculateField"); c != nil && c.Option("binary", "operator") == "/" {
		f = f.Divide(c.Option("alias"), c.Option("binary", "left"), c.Option("binary", "right"))
	}
	if g := p.Transform("groupingToMatrix"); g != nil {
		m := f.ToMatrix(g.Option("rowField"), g.Option("columnField"), g.Option("valueField"))
		grid := &render.Grid{Title: p.Title, Unit: p.FieldConfig.Defaults.Unit, RowNames: m.RowNames, ColNames: m.ColNames, Cells: m.Cells}
		err := b.learningCells(ctx, p, frames, f, grid, g.Option("rowField"), g.Option("columnField"), g.Option("valueField"), vars)
		if err == nil && len(grid.RowNames) == 0 {
			grid.Why, err = b.explain(ctx, p.Targets, found, scope, vars)
		}
		if len(grid.RowNames) > maxGridSide || len(grid.ColNames) > maxGridSide {
			grid.More = fmt.Sprintf("showing %d of %d sources × %d of %d destinations",
				min(len(grid.RowNames), maxGridSide), len(grid.RowNames), min(len(grid.ColNames), maxGridSide), len(grid.ColNames))
			grid.RowNames, grid.ColNames = grid.RowNames[:min(len(grid.RowNames), maxGridSide)], grid.ColNames[:min(len(grid.ColNames), maxGridSide)]
		}
		switch g.Option("valueField") {
		case "ratio":
			grid.Good = func(v float64) bool { return v >= 0.5 }
		case "loss":
			grid.Good = func(v float64) bool { return v < contract.LossAlarmPercent }
		}
		return render.Item{Grid: grid}, f, err
	}
	t := &render.Table{Title: p.Title, Header: f.Columns}
	if len(f.Rows) == 0 {
		why, err := b.explain(ctx, p.Targets, found, scope, vars)
		if err != nil {
			return render.Item{}, f, err
		}
		t.Why = why
	}
	rows := f.Rows
	if len(rows) > maxTableRows {
		t.More = fmt.Sprintf("… and %d more rows (longhaul alerts and trends print everything)", len(rows)-maxTableRows)
		rows = rows[:maxTableRows]
	}
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = cell(f.Columns[i], v)
		}
		t.Rows = append(t.Rows, cells)
	}
	return render.Item{Table: t}, f, nil
}

// cell formats one table value: times as UTC, rates in bit/s, numbers short.
func cell(column string, v any) string {
	if v == nil {
		return ""
	}
	x, ok := influx.Float(v)
	switch {
	case !ok:
		return influx.Str(v)
	case column == "time":
		return render.FormatTime(int64(x))
	case strings.Contains(column, "throughput") || strings.HasSuffix(column, "bps") || column == "current" || column == "baseline":
		return render.FormatValue(x, "bps")
	}
	return render.FormatValue(x, "")
}
