package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"longhaul/ingest/contract"
	"longhaul/operator/dashboards"
	"longhaul/operator/render"
	"longhaul/operator/results"
)

func init() {
	register("alerts", "print open alerts and recent events from InfluxDB (the Alerts dashboard's query)", runAlerts)
}

func runAlerts(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("alerts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: longhaul alerts [--since 24h] [--site NAME]")
		fmt.Fprintln(stderr, "Open alerts (an alert event whose episode has no recovery yet), then every event of the range,")
		fmt.Fprintln(stderr, "from the Alerts dashboard's event list.")
		fs.PrintDefaults()
	}
	flags := addInfluxFlags(fs)
	since := fs.Duration("since", 24*time.Hour, "events of this long until now")
	site := fs.String("site", "", "only events whose source or destination is this site")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	now := time.Now()
	events, err := results.LoadEvents(ctx, flags.client(), flags.dashboardsDir(), dashboards.Range{From: now.Add(-*since), To: now}, *site)
	if err != nil {
		fmt.Fprintln(stderr, "longhaul alerts:", err)
		return 1
	}
	open := results.OpenAlerts(events, contract.Closes)
	fmt.Fprintf(stdout, "open alerts (%d)\n", len(open))
	writeEvents(stdout, open)
	fmt.Fprintf(stdout, "\nevents in the last %s (%d)\n", *since, len(events))
	writeEvents(stdout, events)
	return 0
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
