package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"longhaul/internal/cli"
	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
	"longhaul/operator/render"
	"longhaul/operator/results"
)

const incidentsDoc = `Open and recent incidents (one location explaining several degraded links), open ones first:
place, links and their alert kinds, since when, the correlator's evidence and the command that
silences each, from the Mesh overview's incidents panel.`

func runIncidents(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--since 24h] [--json]", incidentsDoc)
	flags := addInfluxFlags(fs.FlagSet)
	since := fs.Duration("since", 24*time.Hour, "incidents with an event in this long until now")
	asJSON := fs.Bool("json", false, "print the incidents as a JSON array")
	if code, done := fs.Parse(args); done {
		return code
	}
	if *since <= 0 {
		return env.UsageError("--since %s: must be positive", *since)
	}
	now := time.Now()
	return flags.query(env, func(ctx context.Context, c *influx.Client) int {
		incidents, err := results.LoadIncidents(ctx, c, flags.dashboardsDir(), dashboards.Range{From: now.Add(-*since), To: now})
		if err != nil {
			return env.Fail("%v", err)
		}
		if *asJSON {
			if incidents == nil {
				incidents = []results.Incident{}
			}
			enc := json.NewEncoder(env.Stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(incidents); err != nil {
				return env.Fail("%v", err)
			}
			return cli.ExitOK
		}
		writeIncidents(env.Stdout, incidents, *since)
		return cli.ExitOK
	})
}

// writeIncidents prints each incident as a block: its place and state first, then its links.
func writeIncidents(w io.Writer, incidents []results.Incident, since time.Duration) {
	open := 0
	for _, inc := range incidents {
		if inc.Open {
			open++
		}
	}
	fmt.Fprintf(w, "incidents in the last %s: %d open, %d resolved\n", results.Span(since), open, len(incidents)-open)
	for _, inc := range incidents {
		fmt.Fprintln(w)
		for _, line := range incidentLines(inc) {
			fmt.Fprintln(w, line)
		}
	}
}

// incidentLines is one incident as the text output prints it.
func incidentLines(inc results.Incident) []string {
	state := fmt.Sprintf("OPEN [%s]", inc.Severity)
	if !inc.Open {
		state = "resolved " + render.FormatTime(inc.Resolved.UnixMilli())
	}
	lines := []string{
		fmt.Sprintf("%s  %s, %s", state, inc.Location, results.LinkCount(inc.LinksDegraded)),
		"  since     " + render.FormatTime(inc.Since.UnixMilli()),
		"  incident  " + inc.ID,
	}
	if len(inc.Links) == 0 {
		lines = append(lines, "  links     not stored (the job wrote no evidence.link_list before this version)")
	}
	for i, l := range inc.Links {
		label := "          "
		if i == 0 {
			label = "links     "
		}
		line := "  " + label + l.Src + " → " + l.Dst
		if len(l.Kinds) > 0 {
			line += " (" + strings.Join(l.Kinds, ", ") + ")"
		}
		lines = append(lines, line)
	}
	lines = append(lines, "  evidence  "+inc.Evidence)
	if inc.Outcome != "" {
		lines = append(lines, "  outcome   "+inc.Outcome)
	}
	if inc.Silence != "" {
		lines = append(lines, "  silence   "+inc.Silence)
	}
	return lines
}
