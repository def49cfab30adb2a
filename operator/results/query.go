// Package results reads Longhaul's results out of InfluxDB for people: a link's trends, the
// open alerts and the report's sections. It runs the dashboards' own queries (operator/
// dashboards expands their Grafana macros), so the CLI shows what Grafana shows.
package results

import (
	"context"
	"strings"

	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
	"longhaul/operator/render"
)

// Querier runs one InfluxQL statement; *influx.Client is one.
type Querier interface {
	Query(ctx context.Context, q string) ([]influx.Series, error)
}

// points is how many points a chart is drawn with: Grafana's $__interval for a ~1000 px panel.
const points = 500

// Run executes one dashboard query with Grafana's macros and the given variables expanded.
func Run(ctx context.Context, c Querier, query string, r dashboards.Range, vars map[string]string) ([]influx.Series, error) {
	q, err := dashboards.Expand(query, r, points, vars)
	if err != nil {
		return nil, err
	}
	return c.Query(ctx, q)
}

// Lines turns time series into chart lines named as Grafana names them: the alias with
// $tag_<key> expanded, else the column name.
func Lines(series []influx.Series, alias string) []render.Line {
	var out []render.Line
	for _, s := range series {
		ti := s.Col("time")
		for ci, col := range s.Columns {
			if ci == ti {
				continue
			}
			name := col
			if alias != "" {
				name = alias
				for k, v := range s.Tags {
					name = strings.ReplaceAll(name, "$tag_"+k, v)
				}
			}
			var pts []render.Point
			for _, row := range s.Values {
				if v, ok := influx.Float(row[ci]); ok {
					pts = append(pts, render.Point{T: s.Millis(row), V: v})
				}
			}
			if len(pts) > 0 {
				out = append(out, render.Line{Name: name, Points: pts})
			}
		}
	}
	return out
}
