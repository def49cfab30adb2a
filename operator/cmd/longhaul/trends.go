package main

import (
	"context"
	"fmt"
	"time"

	"longhaul/internal/cli"
	"longhaul/operator/influx"
	"longhaul/operator/render"
	"longhaul/operator/results"
)

const trendsDoc = `One row per bucket: mean throughput (TCP), p10, retransmits, loss and jitter (UDP, ping), RTT (ping).
Reads the retention policy that matches --every (raw < 1h ≤ hourly < 1d ≤ daily), and finer ones
when that one has no statistics for the link yet. Durations take d for days (90d).`

func runTrends(env *cli.Env, args []string) int {
	fs := env.FlagSet("--src S --dst D [--since 90d] [--every 1d]", trendsDoc)
	flags := addInfluxFlags(fs.FlagSet)
	src := fs.String("src", "", "source (required)")
	dst := fs.String("dst", "", "destination (required)")
	since := fs.String("since", "90d", "history of this long until now (e.g. 90d, 12h)")
	every := fs.String("every", "1d", "bucket size (e.g. 1d, 1h, 10m)")
	if code, done := fs.Parse(args); done {
		return code
	}
	if *src == "" || *dst == "" {
		return env.UsageError("--src and --dst are required")
	}
	sinceD, err := parseDays(*since)
	if err != nil {
		return env.UsageError("--since: %v", err)
	}
	everyD, err := parseDays(*every)
	if err != nil || everyD <= 0 {
		return env.UsageError("--every: want a positive duration such as 1d or 10m, got %q", *every)
	}
	return flags.query(env, func(ctx context.Context, c *influx.Client) int {
		for _, rp := range results.Fallback(results.PolicyFor(everyD)) {
			rows, err := results.Trends(ctx, c, rp, *src, *dst, sinceD, everyD)
			if err != nil {
				return env.Fail("%v", err)
			}
			if len(rows) == 0 {
				continue
			}
			fmt.Fprintf(env.Stdout, "%s → %s, last %s every %s (from the %s statistics)\n", *src, *dst, *since, *every, rp)
			t := &render.TextTable{Header: []string{"time (UTC)"}}
			for _, col := range results.TrendColumns {
				t.Header = append(t.Header, col.Name)
			}
			for _, r := range rows {
				t.Rows = append(t.Rows, trendCells(r))
			}
			_ = t.Write(env.Stdout)
			return cli.ExitOK
		}
		return env.Fail("no statistics for %s → %s in the last %s", *src, *dst, *since)
	})
}

// trendCells formats one bucket: rates with their unit, counts whole, the rest to 2 decimals.
func trendCells(r results.TrendRow) []string {
	cells := []string{render.FormatTime(r.T)}
	for i, v := range r.Values {
		switch {
		case v == nil:
			cells = append(cells, "-")
		case results.TrendColumns[i].Unit == "bps":
			cells = append(cells, render.FormatValue(*v, "bps"))
		case results.TrendColumns[i].Unit == "count":
			cells = append(cells, fmt.Sprintf("%.0f", *v))
		default:
			cells = append(cells, fmt.Sprintf("%.2f", *v))
		}
	}
	return cells
}

// parseDays reads a Go duration that may also use d for days: 90d, 1d12h, 10m.
func parseDays(s string) (time.Duration, error) {
	var days int
	if n, err := fmt.Sscanf(s, "%dd", &days); err == nil && n == 1 {
		rest := s[len(fmt.Sprint(days))+1:]
		d := time.Duration(days) * 24 * time.Hour
		if rest == "" {
			return d, nil
		}
		r, err := time.ParseDuration(rest)
		return d + r, err
	}
	return time.ParseDuration(s)
}
