package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"time"

	"longhaul/collectors/dashq"
	"longhaul/collectors/influxq"
	"longhaul/collectors/report"
)

// influxFlags are the flags every results command shares: where InfluxDB and the dashboards are.
type influxFlags struct {
	url, db, dashboards *string
}

func addInfluxFlags(fs *flag.FlagSet) influxFlags {
	return influxFlags{
		url:        fs.String("influx", envOr("LONGHAUL_INFLUX_URL", "http://127.0.0.1:8086"), "InfluxDB base URL (env LONGHAUL_INFLUX_URL)"),
		db:         fs.String("db", envOr("LONGHAUL_INFLUX_DB", "longhaul"), "InfluxDB database (env LONGHAUL_INFLUX_DB)"),
		dashboards: fs.String("dashboards", envOr("LONGHAUL_DASHBOARDS", "dashboards/json"), "folder of the Grafana dashboard JSON whose queries are run"),
	}
}

// dashboardsDir is the --dashboards folder; the default "dashboards/json" is looked up in the
// working directory first, then next to the binary (bin/../dashboards/json), so bin/longhaul
// works from anywhere in a checkout.
func (f influxFlags) dashboardsDir() string {
	dir := *f.dashboards
	if _, err := os.Stat(dir); err == nil || filepath.IsAbs(dir) {
		return dir
	}
	if exe, err := os.Executable(); err == nil {
		if alt := filepath.Join(filepath.Dir(exe), "..", dir); exists(alt) {
			return alt
		}
	}
	return dir
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func (f influxFlags) client() *influxq.Client {
	return &influxq.Client{URL: *f.url, DB: *f.db, Token: os.Getenv("INFLUX_TOKEN")}
}

// run executes one dashboard query with Grafana's macros expanded.
func runQuery(ctx context.Context, c *influxq.Client, query string, r dashq.Range, vars map[string]string) ([]influxq.Series, error) {
	q, err := dashq.Expand(query, r, 500, vars)
	if err != nil {
		return nil, err
	}
	return c.Query(ctx, q)
}

// lines turns time series into chart lines named like Grafana names them: the alias with
// $tag_<key> expanded, else the column name plus the series' tags.
func lines(series []influxq.Series, alias string) []report.Line {
	var out []report.Line
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
			var pts []report.Point
			for _, row := range s.Values {
				if v, ok := influxq.Float(row[ci]); ok {
					pts = append(pts, report.Point{T: s.Millis(row), V: v})
				}
			}
			if len(pts) > 0 {
				out = append(out, report.Line{Name: name, Points: pts})
			}
		}
	}
	return out
}

func fmtTime(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04") }
