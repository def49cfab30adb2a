package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"time"

	"longhaul/collectors/influxq"
)

func init() {
	register("trends", "print a link's throughput, loss and RTT history from InfluxDB as a table", runTrends)
}

// trendColumns are the table's columns: each a query on one protocol's statistics.
var trendColumns = []struct{ name, expr, protocol string }{
	{"throughput", `mean("throughput_mean_bps")`, `"protocol" = 'tcp'`},
	{"p10", `mean("throughput_p10_bps")`, `"protocol" = 'tcp'`},
	{"retransmits", `sum("retransmits")`, `"protocol" = 'tcp'`},
	{"loss %", `mean("loss_percent")`, `"protocol" =~ /^(udp|icmp)$/`},
	{"rtt ms", `mean("rtt_mean_ms")`, `"protocol" = 'icmp'`},
	{"jitter ms", `mean("jitter_ms")`, `"protocol" =~ /^(udp|icmp)$/`},
}

// policyFor is the finest retention policy worth reading for a bucket size: 1-minute statistics
// (raw, 30 d) for buckets under an hour, hourly under a day, else daily.
func policyFor(every time.Duration) string {
	switch {
	case every >= 24*time.Hour:
		return "daily"
	case every >= time.Hour:
		return "hourly"
	}
	return "raw"
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
	for _, rp := range fallback(policyFor(everyD)) {
		rows, err := trendRows(ctx, c, rp, *src, *dst, sinceD, everyD)
		if err != nil {
			fmt.Fprintln(stderr, "longhaul trends:", err)
			return 1
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(stdout, "%s → %s, last %s every %s (from the %s statistics)\n", *src, *dst, *since, *every, rp)
		t := &influxq.Table{Header: append([]string{"time (UTC)"}, columnNames()...)}
		for _, r := range rows {
			t.Rows = append(t.Rows, r)
		}
		_ = t.Write(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "longhaul trends: no statistics for %s → %s in the last %s\n", *src, *dst, *since)
	return 1
}

func columnNames() []string {
	var out []string
	for _, c := range trendColumns {
		out = append(out, c.name)
	}
	return out
}

func fallback(rp string) []string {
	order := []string{"daily", "hourly", "raw"}
	for i, r := range order {
		if r == rp {
			return order[i:]
		}
	}
	return []string{"raw"}
}

// trendRows runs one query per column and joins them on the bucket time.
func trendRows(ctx context.Context, c *influxq.Client, rp, src, dst string, since, every time.Duration) ([][]string, error) {
	cells := map[int64][]string{}
	for i, col := range trendColumns {
		q := fmt.Sprintf(`SELECT %s FROM %q."link_stats" WHERE "src" = '%s' AND "dst" = '%s' AND %s AND time > now() - %ds GROUP BY time(%ds) fill(none)`,
			col.expr, rp, escape(src), escape(dst), col.protocol, int64(since.Seconds()), int64(every.Seconds()))
		series, err := c.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, s := range series {
			for _, row := range s.Values {
				v, ok := influxq.Float(row[1])
				if !ok {
					continue
				}
				t := s.Millis(row)
				if cells[t] == nil {
					cells[t] = make([]string, len(trendColumns))
				}
				cells[t][i] = formatTrend(col.name, v)
			}
		}
	}
	times := make([]int64, 0, len(cells))
	for t := range cells {
		times = append(times, t)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	var rows [][]string
	for _, t := range times {
		row := []string{fmtTime(t)}
		for _, v := range cells[t] {
			if v == "" {
				v = "-"
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func formatTrend(col string, v float64) string {
	switch col {
	case "throughput", "p10":
		return influxq.FormatBps(v)
	case "retransmits":
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// escape makes a value safe inside an InfluxQL single-quoted string.
func escape(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\'' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, r)
	}
	return string(out)
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
