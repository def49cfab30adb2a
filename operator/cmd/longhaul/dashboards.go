package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"longhaul/operator/dashboards"
)

func init() {
	register("dashboards", "expand a dashboard query's Grafana macros and variables the way Grafana does", runDashboards)
}

const dashboardsUsage = `usage: longhaul dashboards expand --from MS --to MS [--points N] [--var NAME=VALUE]... QUERY

Prints QUERY with $timeFilter, $__interval and every $variable expanded the way Grafana
expands InfluxQL (the same code the alerts and report commands run), so tests and scripts
run exactly what a panel runs. An unknown variable is an error.
`

// varFlags collects repeated --var NAME=VALUE.
type varFlags map[string]string

func (v varFlags) String() string { return fmt.Sprint(map[string]string(v)) }

func (v varFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	v[name] = value
	return nil
}

func runDashboards(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "expand" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, dashboardsUsage)
			return 0
		}
		fmt.Fprint(stderr, dashboardsUsage)
		return 2
	}
	fs := flag.NewFlagSet("dashboards expand", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, dashboardsUsage); fs.PrintDefaults() }
	from := fs.Int64("from", 0, "range start, epoch milliseconds")
	to := fs.Int64("to", 0, "range end, epoch milliseconds")
	points := fs.Int("points", 1000, "points across the range ($__interval = range / points, rounded like Grafana)")
	vars := varFlags{}
	fs.Var(vars, "var", "a variable's value, NAME=VALUE (repeatable)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *to <= *from || *points <= 0 {
		fs.Usage()
		return 2
	}
	q, err := dashboards.Expand(fs.Arg(0), dashboards.Range{From: time.UnixMilli(*from), To: time.UnixMilli(*to)}, *points, vars)
	if err != nil {
		fmt.Fprintln(stderr, "longhaul dashboards expand:", err)
		return 1
	}
	fmt.Fprintln(stdout, q)
	return 0
}
