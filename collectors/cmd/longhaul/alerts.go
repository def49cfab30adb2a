package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"longhaul/collectors/dashq"
	"longhaul/collectors/influxq"
)

func init() {
	register("alerts", "print open alerts and recent events from InfluxDB (the Alerts dashboard's query)", runAlerts)
}

// recoveryOf maps each alert kind to the kind that ends its episode.
var recoveryOf = map[string]string{
	"throughput_collapse": "throughput_recovery", "unreachable": "reachable", "site_unreachable": "site_reachable",
	"high_loss": "loss_recovery", "high_jitter": "jitter_recovery", "no_data": "data_resumed",
}

// Event is one stored event.
type Event struct {
	T                                      int64
	Src, Dst, Kind, Severity, Msg, Episode string
}

func runAlerts(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("alerts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: longhaul alerts [--since 24h] [--site NAME]")
		fmt.Fprintln(stderr, "Open alerts (an alert event whose episode has no recovery yet), then every event of the range,")
		fmt.Fprintln(stderr, "from the Alerts dashboard's \"Recent events\" query.")
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
	events, err := loadEvents(flags, *since, *site)
	if err != nil {
		fmt.Fprintln(stderr, "longhaul alerts:", err)
		return 1
	}
	open := openAlerts(events)
	fmt.Fprintf(stdout, "open alerts (%d)\n", len(open))
	writeEvents(stdout, open)
	fmt.Fprintf(stdout, "\nevents in the last %s (%d)\n", *since, len(events))
	writeEvents(stdout, events)
	return 0
}

func loadEvents(flags influxFlags, since time.Duration, site string) ([]Event, error) {
	d, err := dashq.LoadUID(flags.dashboardsDir(), "longhaul-alerts")
	if err != nil {
		return nil, err
	}
	p := d.Panel("Recent events")
	if p == nil || len(p.Targets) != 1 {
		return nil, fmt.Errorf("the Alerts dashboard has no \"Recent events\" panel")
	}
	if site == "" {
		site = ".*"
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	now := time.Now()
	series, err := runQuery(ctx, flags.client(), p.Targets[0].Query, dashq.Range{From: now.Add(-since), To: now}, map[string]string{"site": site})
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, s := range series {
		get := func(row []any, col string) string {
			if i := s.Col(col); i >= 0 {
				return influxq.Str(row[i])
			}
			return s.Tags[col]
		}
		for _, row := range s.Values {
			out = append(out, Event{T: s.Millis(row), Src: get(row, "src"), Dst: get(row, "dst"), Kind: get(row, "kind"),
				Severity: get(row, "severity"), Msg: get(row, "message"), Episode: get(row, "episode_id")})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out, nil
}

// openAlerts keeps, per link and alert kind, the last alert event unless a recovery of that
// kind on that link came after it. Events are in time order.
func openAlerts(events []Event) []Event {
	type key struct{ src, dst, kind string }
	open := map[key]Event{}
	var order []key
	for _, e := range events {
		if _, isAlert := recoveryOf[e.Kind]; isAlert {
			k := key{e.Src, e.Dst, e.Kind}
			if _, seen := open[k]; !seen {
				order = append(order, k)
			}
			open[k] = e
			continue
		}
		for alert, recovery := range recoveryOf {
			if recovery == e.Kind {
				delete(open, key{e.Src, e.Dst, alert})
			}
		}
	}
	var out []Event
	for _, k := range order {
		if e, ok := open[k]; ok {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

func writeEvents(w io.Writer, events []Event) {
	if len(events) == 0 {
		fmt.Fprintln(w, "  none")
		return
	}
	t := &influxq.Table{Header: []string{"time (UTC)", "severity", "kind", "link", "message"}}
	for _, e := range events {
		t.Add(fmtTime(e.T), e.Severity, e.Kind, e.Src+" → "+e.Dst, strings.TrimSpace(e.Msg))
	}
	_ = t.Write(w)
}
