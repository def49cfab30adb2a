package main

import (
	"fmt"
	"strings"
	"time"

	"longhaul/internal/cli"
	"longhaul/operator/dashboards"
)

var dashboardsApp = &cli.App{
	Name: "longhaul dashboards",
	Doc:  "The Grafana dashboards' queries, as the CLI runs them.",
	Commands: []cli.Command{
		{Name: "expand", Summary: "print a query with Grafana's macros and variables expanded", Run: runDashboardsExpand},
		{Name: "meshes", Summary: "write the dashboards with a pSConfig template's groups as the mesh variable", Run: runDashboardsMeshes},
	},
}

// varFlags collects repeated --var NAME=VALUE; a name given again adds a value (a multi-value
// variable: dashboards.Values).
type varFlags map[string]string

func (v varFlags) String() string { return fmt.Sprint(map[string]string(v)) }

func (v varFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	if prev, again := v[name]; again {
		value = dashboards.Values(prev, value)
	}
	v[name] = value
	return nil
}

const dashboardsExpandDoc = `Prints QUERY with $timeFilter, $__interval and every $variable expanded the way Grafana
expands InfluxQL (the code the alerts and report commands run), so tests and scripts run
exactly what a panel runs. An unknown variable is an error.`

func runDashboardsExpand(env *cli.Env, args []string) int {
	fs := env.FlagSet("--from MS --to MS [--points N] [--var NAME=VALUE]... QUERY", dashboardsExpandDoc)
	fs.ArgsUsage = "QUERY"
	from := fs.Int64("from", 0, "range start, epoch milliseconds")
	to := fs.Int64("to", 0, "range end, epoch milliseconds")
	points := fs.Int("points", 1000, "points across the range ($__interval = range / points, rounded like Grafana)")
	vars := varFlags{}
	fs.Var(vars, "var", "a variable's value, NAME=VALUE (repeatable; a name again adds a value: /^$NAME$/ matches any)")
	if code, done := fs.Parse(args); done {
		return code
	}
	if fs.NArg() != 1 {
		return env.UsageError("give one QUERY (got %d)", fs.NArg())
	}
	if *to <= *from || *points <= 0 {
		return env.UsageError("want --from < --to and --points > 0")
	}
	q, err := dashboards.Expand(fs.Args()[0], dashboards.Range{From: time.UnixMilli(*from), To: time.UnixMilli(*to)}, *points, vars)
	if err != nil {
		return env.Fail("%v", err)
	}
	fmt.Fprintln(env.Stdout, q)
	return cli.ExitOK
}
