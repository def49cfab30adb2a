package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"longhaul/ingest/contract"
	"longhaul/internal/cli"
	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
	"longhaul/operator/render"
	"longhaul/operator/results"
)

func runAlerts(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--since 24h] [--site NAME]",
		"Open alerts (an alert event whose episode has no recovery yet), then every event of the range,\nfrom the Alerts dashboard's event list.")
	flags := addInfluxFlags(fs.FlagSet)
	since := fs.Duration("since", 24*time.Hour, "events of this long until now")
	site := fs.String("site", "", "only events whose source or destination is this site")
	if code, done := fs.Parse(args); done {
		return code
	}
	now := time.Now()
	return flags.query(env, func(ctx context.Context, c *influx.Client) int {
		events, err := results.LoadEvents(ctx, c, flags.dashboardsDir(), dashboards.Range{From: now.Add(-*since), To: now}, *site)
		if err != nil {
			return env.Fail("%v", err)
		}
		open := results.OpenAlerts(events, contract.Closes)
		fmt.Fprintf(env.Stdout, "open alerts (%d)\n", len(open))
		writeEvents(env.Stdout, open)
		fmt.Fprintf(env.Stdout, "\nevents in the last %s (%d)\n", *since, len(events))
		writeEvents(env.Stdout, events)
		return cli.ExitOK
	})
}

func writeEvents(w io.Writer, events []results.Event) {
	if len(events) == 0 {
		fmt.Fprintln(w, "  none")
		return
	}
	t := &render.TextTable{Header: []string{"time (UTC)", "severity", "kind", "link", "message"}}
	for _, e := range events {
		t.Add(render.FormatTime(e.T), e.Severity, e.Kind, e.Src+" → "+e.Dst, strings.TrimSpace(e.Msg))
	}
	_ = t.Write(w)
}
