package results

import (
	"context"
	"fmt"
	"sort"
	"time"

	"longhaul/operator/influx"
)

// TrendColumn is one column of a link's trend table: a query on one protocol's statistics.
type TrendColumn struct {
	Name, Expr, Protocol string
	Unit                 string // render.FormatValue's unit
}

// TrendColumns are the trend table's columns.
var TrendColumns = []TrendColumn{
	{"throughput", `mean("throughput_mean_bps")`, `"protocol" = 'tcp'`, "bps"},
	{"p10", `mean("throughput_p10_bps")`, `"protocol" = 'tcp'`, "bps"},
	{"retransmits", `sum("retransmits")`, `"protocol" = 'tcp'`, "count"},
	{"loss %", `mean("loss_percent")`, `"protocol" =~ /^(udp|icmp)$/`, ""},
	{"rtt ms", `mean("rtt_mean_ms")`, `"protocol" = 'icmp'`, ""},
	{"jitter ms", `mean("jitter_ms")`, `"protocol" =~ /^(udp|icmp)$/`, ""},
	// pScheduler's one-way latency, src → dst only (the reverse direction is the reverse link's)
	{"owd ms", `mean("owd_mean_ms")`, `"protocol" = 'owd'`, ""},
	{"owd loss %", `mean("loss_percent")`, `"protocol" = 'owd'`, ""},
}

// TrendRow is one bucket: a value per column, nil where the column has none.
type TrendRow struct {
	T      int64
	Values []*float64
}

// PolicyFor is the finest retention policy worth reading for a bucket size: 1-minute
// statistics (raw, 30 d) for buckets under an hour, hourly under a day, else daily.
func PolicyFor(every time.Duration) string {
	switch {
	case every >= 24*time.Hour:
		return "daily"
	case every >= time.Hour:
		return "hourly"
	}
	return "raw"
}

// Fallback is the policy and the finer ones to read when it has no statistics for the link yet.
func Fallback(rp string) []string {
	order := []string{"daily", "hourly", "raw"}
	for i, r := range order {
		if r == rp {
			return order[i:]
		}
	}
	return []string{"raw"}
}

// Trends runs one query per column on policy rp and joins them on the bucket time.
func Trends(ctx context.Context, c Querier, rp, src, dst string, since, every time.Duration) ([]TrendRow, error) {
	cells := map[int64][]*float64{}
	for i, col := range TrendColumns {
		q := fmt.Sprintf(`SELECT %s FROM %q."link_stats" WHERE "src" = '%s' AND "dst" = '%s' AND %s AND time > now() - %ds GROUP BY time(%ds) fill(none)`,
			col.Expr, rp, Escape(src), Escape(dst), col.Protocol, int64(since.Seconds()), int64(every.Seconds()))
		series, err := c.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, s := range series {
			for _, row := range s.Values {
				v, ok := influx.Float(row[1])
				if !ok {
					continue
				}
				t := s.Millis(row)
				if cells[t] == nil {
					cells[t] = make([]*float64, len(TrendColumns))
				}
				cells[t][i] = &v
			}
		}
	}
	rows := make([]TrendRow, 0, len(cells))
	for t, v := range cells {
		rows = append(rows, TrendRow{T: t, Values: v})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].T < rows[j].T })
	return rows, nil
}

// Escape makes a value safe inside an InfluxQL single-quoted string.
func Escape(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\'' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, r)
	}
	return string(out)
}
