package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"longhaul/operator/render"
	"longhaul/operator/results"
)

func init() {
	register("trends", "print a link's throughput, loss and RTT history from InfluxDB as a table", runTrends)
}

func runTrends(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trends", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: longhaul trends --src S --dst D [--since 90d] [--every 1d]")
		fmt.Fprintln(stderr, "One row per bucket: mean throughput (TCP), p10, retransmits, loss and jitter (UDP, ping), RTT (ping).")
		fmt.Fprintln(stderr, "Reads the retention policy that matches --every (raw < 1h ≤ hourly < 1d ≤ daily), and finer ones")
		fmt.Fprintln(stderr, "when that one has no statistics for the link yet. Durations take d for days (90d).")
		fs.PrintDefaults()
	}
	flags := addInfluxFlags(fs)
	src := fs.String("src", "", "source (required)")
	dst := fs.String("dst", "", "destination (required)")
	since := fs.String("since", "90d", "history of this long until now (e.g. 90d, 12h)")
	every := fs.String("every", "1d", "bucket size (e.g. 1d, 1h, 10m)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	sinceD, err1 := parseDays(*since)
	everyD, err2 := parseDays(*every)
	if *src == "" || *dst == "" || err1 != nil || err2 != nil || everyD <= 0 || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := flags.client()
	for _, rp := range results.Fallback(results.PolicyFor(everyD)) {
		rows, err := results.Trends(ctx, c, rp, *src, *dst, sinceD, everyD)
		if err != nil {
			fmt.Fprintln(stderr, "longhaul trends:", err)
			return 1
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(stdout, "%s → %s, last %s every %s (from the %s statistics)\n", *src, *dst, *since, *every, rp)
		t := &render.TextTable{Header: []string{"time (UTC)"}}
		for _, col := range results.TrendColumns {
			t.Header = append(t.Header, col.Name)
		}
		for _, r := range rows {
			t.Rows = append(t.Rows, trendCells(r))
		}
		_ = t.Write(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "longhaul trends: no statistics for %s → %s in the last %s\n", *src, *dst, *since)
	return 1
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
