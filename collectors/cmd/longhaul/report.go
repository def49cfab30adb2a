package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"longhaul/collectors/dashq"
	"longhaul/collectors/influxq"
	"longhaul/collectors/report"
)

func init() {
	register("report", "write a self-contained HTML report: the mesh overview and link dashboards' panels as inline SVG", runReport)
}

func runReport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: longhaul report [--since 24h] [--src S --dst D] -o report.html")
		fmt.Fprintln(stderr, "One chart per panel of the Mesh overview and Link detail dashboards, from the same")
		fmt.Fprintln(stderr, "queries (read from the dashboard JSON), for the links with TCP statistics in the range.")
		fs.PrintDefaults()
	}
	flags := addInfluxFlags(fs)
	since := fs.Duration("since", 24*time.Hour, "time range: this long until now")
	out := fs.String("o", "report.html", "output file")
	src := fs.String("src", "", "only this source (with --dst)")
	dst := fs.String("dst", "", "only this destination (with --src)")
	maxLinks := fs.Int("max-links", 8, "at most this many links get a Link detail section")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*src == "") != (*dst == "") || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	now := time.Now().UTC()
	b := &reportBuilder{c: flags.client(), r: dashq.Range{From: now.Add(-*since), To: now}}
	doc, err := b.build(ctx, flags.dashboardsDir(), *src, *dst, *maxLinks)
	if err != nil {
		fmt.Fprintln(stderr, "longhaul report:", err)
		return 1
	}
	doc.Generated, doc.Source = now, *flags.url+" / "+*flags.db
	f, err := os.Create(*out)
	if err == nil {
		err = doc.Write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "longhaul report:", err)
		return 1
	}
	panels := 0
	for _, s := range doc.Sections {
		panels += len(s.Items)
	}
	fmt.Fprintf(stdout, "wrote %s: %d sections, %d panels\n", *out, len(doc.Sections), panels)
	return 0
}

// A mailed report stays readable: tables show at most maxTableRows rows, matrices at most
// maxGridSide sources and destinations, each saying how much more there is.
const (
	maxTableRows = 25
	maxGridSide  = 12
)

type reportBuilder struct {
	c *influxq.Client
	r dashq.Range
}

func (b *reportBuilder) build(ctx context.Context, dir, src, dst string, maxLinks int) (*report.Doc, error) {
	mesh, err := dashq.LoadUID(dir, "longhaul-mesh")
	if err != nil {
		return nil, err
	}
	link, err := dashq.LoadUID(dir, "longhaul-link")
	if err != nil {
		return nil, err
	}
	doc := &report.Doc{Title: "Longhaul report", From: b.r.From, To: b.r.To}
	overview := report.Section{Title: mesh.Title, Subtitle: mesh.Description}
	var links [][2]string
	for _, p := range mesh.Panels {
		item, frame, err := b.tablePanel(ctx, p, nil)
		if err != nil {
			return nil, fmt.Errorf("%s / %s: %w", mesh.Title, p.Title, err)
		}
		overview.Items = append(overview.Items, item)
		if p.ID == 3 { // the links table: every link with TCP statistics in the range
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

func linksOf(f dashq.Frame) [][2]string {
	si, di := f.Col("src"), f.Col("dst")
	var out [][2]string
	if si < 0 || di < 0 {
		return nil
	}
	for _, r := range f.Rows {
		out = append(out, [2]string{influxq.Str(r[si]), influxq.Str(r[di])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0]+out[i][1] < out[j][0]+out[j][1] })
	return out
}

func (b *reportBuilder) linkSection(ctx context.Context, d *dashq.Dashboard, src, dst string) (report.Section, error) {
	vars := map[string]string{"src": src, "dst": dst}
	sec := report.Section{Title: fmt.Sprintf("%s: %s → %s", d.Title, src, dst), Subtitle: d.Description}
	var marks []report.Mark
	for _, a := range d.Annotations.List {
		if a.Target == nil {
			continue
		}
		series, err := runQuery(ctx, b.c, a.Target.Query, b.r, vars)
		if err != nil {
			return sec, fmt.Errorf("annotation %s: %w", a.Name, err)
		}
		for _, s := range series {
			mi := s.Col("text") // Grafana shows the "text" column of an annotation query
			for _, row := range s.Values {
				marks = append(marks, report.Mark{T: s.Millis(row), Label: influxq.Str(row[mi])})
			}
		}
	}
	for _, p := range d.Panels {
		if p.Type == "table" {
			item, _, err := b.tablePanel(ctx, p, vars)
			if err != nil {
				return sec, fmt.Errorf("%s / %s: %w", d.Title, p.Title, err)
			}
			sec.Items = append(sec.Items, item)
			continue
		}
		chart := &report.Chart{Title: p.Title, Unit: p.FieldConfig.Defaults.Unit, Marks: marks,
			From: b.r.From.UnixMilli(), To: b.r.To.UnixMilli()}
		for _, t := range p.Targets {
			series, err := runQuery(ctx, b.c, t.Query, b.r, vars)
			if err != nil {
				return sec, fmt.Errorf("%s / %s: %w", d.Title, p.Title, err)
			}
			chart.Lines = append(chart.Lines, lines(series, t.Alias)...)
		}
		sec.Items = append(sec.Items, report.Item{Chart: chart})
	}
	return sec, nil
}

// tablePanel runs a table panel's queries and applies its transformations (merge,
// calculateField, groupingToMatrix) like Grafana: a matrix becomes a grid, the rest a table.
func (b *reportBuilder) tablePanel(ctx context.Context, p dashq.Panel, vars map[string]string) (report.Item, dashq.Frame, error) {
	var frames []dashq.Frame
	for _, t := range p.Targets {
		series, err := runQuery(ctx, b.c, t.Query, b.r, vars)
		if err != nil {
			return report.Item{}, dashq.Frame{}, err
		}
		aggregated := !strings.Contains(t.Query, "GROUP BY time") && strings.Contains(t.Query, "GROUP BY")
		frames = append(frames, dashq.ToFrame(series, aggregated))
	}
	f := dashq.Merge(frames...)
	if c := p.Transform("calculateField"); c != nil && c.Option("binary", "operator") == "/" {
		f = f.Divide(c.Option("alias"), c.Option("binary", "left"), c.Option("binary", "right"))
	}
	if g := p.Transform("groupingToMatrix"); g != nil {
		m := f.ToMatrix(g.Option("rowField"), g.Option("columnField"), g.Option("valueField"))
		grid := &report.Grid{Title: p.Title, Unit: p.FieldConfig.Defaults.Unit, RowNames: m.RowNames, ColNames: m.ColNames, Cells: m.Cells}
		if len(grid.RowNames) > maxGridSide || len(grid.ColNames) > maxGridSide {
			grid.More = fmt.Sprintf("showing %d of %d sources × %d of %d destinations",
				min(len(grid.RowNames), maxGridSide), len(grid.RowNames), min(len(grid.ColNames), maxGridSide), len(grid.ColNames))
			grid.RowNames, grid.ColNames = grid.RowNames[:min(len(grid.RowNames), maxGridSide)], grid.ColNames[:min(len(grid.ColNames), maxGridSide)]
		}
		switch g.Option("valueField") {
		case "ratio":
			grid.Good = func(v float64) bool { return v >= 0.5 }
		case "loss":
			grid.Good = func(v float64) bool { return v < 2 }
		}
		return report.Item{Grid: grid}, f, nil
	}
	t := &report.Table{Title: p.Title, Header: f.Columns}
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
	return report.Item{Table: t}, f, nil
}

// cell formats one table value: times as UTC, rates in bit/s, numbers short.
func cell(column string, v any) string {
	if v == nil {
		return ""
	}
	x, ok := influxq.Float(v)
	switch {
	case !ok:
		return influxq.Str(v)
	case column == "time":
		return fmtTime(int64(x))
	case strings.Contains(column, "throughput") || strings.HasSuffix(column, "bps") || column == "current" || column == "baseline":
		return influxq.FormatBps(x)
	}
	return report.FormatValue(x, "")
}
