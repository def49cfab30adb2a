package dashboards

import (
	"regexp"
	"strconv"
	"strings"
)

// What a panel's query needs before it can return anything is read from the query itself, the
// one place the fact lives: `moving_average(…, 10)` needs 10 points, a read of the collapse
// detector's baseline needs the runs the detector learns it from. So an empty panel can say why
// without a table that could drift from it.

// Need is what one query needs to return something.
type Need struct {
	Measurement string   // what it reads: link_stats, events, path_hops
	Policy      string   // the retention policy it reads (raw, hourly, daily)
	Field       string   // the field its first expression reads
	Protocols   []string // the protocols its WHERE selects; none when it selects by none
	Kinds       []string // the event kinds its WHERE selects
	AlertsOnly  bool     // events with "severity" <> 'info'
	Points      int      // N of moving_average(…, N): the inner series needs N points; 0 without one
	Baseline    bool     // reads the throughput collapse detector's baseline (window BaselineWindow)
}

// BaselineWindow is the window of the link statistics that carry the throughput collapse
// detector's baseline of a probe after each run it takes (link_stats.v3): its median and spread,
// the runs it holds (runs), the runs it needs (baseline_min_runs) and whether it has them
// (baseline_ready).
const BaselineWindow = "baseline"

// Learning says the query needs more history than a short run has: more points than a moving
// average's inner series may have yet, or the runs the collapse detector learns its baseline
// from.
func (n Need) Learning() bool {
	return n.Points > 0 || n.Baseline
}

var (
	statement     = regexp.MustCompile(`(?s)^SELECT\s+(.+?)\s+FROM\s+(?:"(\w+)"\.)?"(\w+)"(?:\s+WHERE\s+(.+?))?(?:\s+GROUP BY\s+(.+?))?\s*$`)
	movingAverage = regexp.MustCompile(`moving_average\((\w+\("[^"]+"\)),\s*(\d+)\)`)
	firstField    = regexp.MustCompile(`^(?:\w+\()*"(\w+)"`)
	protocolIs    = regexp.MustCompile(`"protocol"\s*=\s*'(\w+)'`)
	protocolIn    = regexp.MustCompile(`"protocol"\s*=~\s*/\^\(([\w|]+)\)\$/`)
	kindIs        = regexp.MustCompile(`"kind"\s*=\s*'(\w+)'`)
	windowIs      = regexp.MustCompile(`"window"\s*=\s*'(\w+)'`)
	readyIs       = regexp.MustCompile(`\s*AND\s+"baseline_ready"\s*=\s*true\b|"baseline_ready"\s*=\s*true\s+AND\s+`)
	timeGroup     = regexp.MustCompile(`\s*time\([^)]*\)\s*,?|\s*fill\(\w+\)`)
)

// NeedOf reads a query's need.
func NeedOf(query string) Need {
	m := statement.FindStringSubmatch(strings.TrimSpace(query))
	if m == nil {
		return Need{Measurement: Reads(query)}
	}
	n := Need{Measurement: m[3], Policy: m[2]}
	if f := firstField.FindStringSubmatch(m[1]); f != nil {
		n.Field = f[1]
	}
	if a := movingAverage.FindStringSubmatch(m[1]); a != nil {
		n.Points, _ = strconv.Atoi(a[2])
	}
	where := m[4]
	for _, p := range protocolIs.FindAllStringSubmatch(where, -1) {
		n.Protocols = append(n.Protocols, p[1])
	}
	for _, p := range protocolIn.FindAllStringSubmatch(where, -1) {
		n.Protocols = append(n.Protocols, strings.Split(p[1], "|")...)
	}
	for _, k := range kindIs.FindAllStringSubmatch(where, -1) {
		n.Kinds = append(n.Kinds, k[1])
	}
	n.AlertsOnly = strings.Contains(where, `"severity" <> 'info'`)
	if w := windowIs.FindStringSubmatch(where); w != nil && w[1] == BaselineWindow {
		n.Baseline = n.Measurement == "link_stats"
	}
	return n
}

// Inner is the query with its moving average taken off: the series the average is taken over,
// one point per interval that has samples.
func Inner(query string) string {
	return movingAverage.ReplaceAllString(query, "$1")
}

// BaselineProgress is a query on what the collapse detector has of the baseline a query reads,
// ready or not, with the same filter and tag grouping: its newest baseline's runs ("runs") and
// the runs it needs ("needs").
func BaselineProgress(query string) (string, bool) {
	m := statement.FindStringSubmatch(strings.TrimSpace(query))
	if m == nil || !NeedOf(query).Baseline {
		return "", false
	}
	from := `"` + m[3] + `"`
	if m[2] != "" {
		from = `"` + m[2] + `".` + from
	}
	q := `SELECT last("runs") AS "runs", last("baseline_min_runs") AS "needs" FROM ` + from +
		" WHERE " + readyIs.ReplaceAllString(m[4], "")
	if group := strings.Trim(timeGroup.ReplaceAllString(m[5], ""), " ,"); group != "" {
		q += " GROUP BY " + group
	}
	return q, true
}
