package results

import (
	"context"
	"fmt"
	"sort"

	"longhaul/operator/dashboards"
)

// AlertsDashboard is the dashboard whose event list the CLI reads.
const AlertsDashboard = "longhaul-alerts"

// Event is one stored event.
type Event struct {
	T                                      int64
	Src, Dst, Kind, Severity, Msg, Episode string
}

// LoadEvents runs the Alerts dashboard's event list (its table of single events) over r,
// for one site or every site (""), in time order.
func LoadEvents(ctx context.Context, c Querier, dir string, r dashboards.Range, site string) ([]Event, error) {
	d, err := dashboards.LoadUID(dir, AlertsDashboard)
	if err != nil {
		return nil, err
	}
	p := d.Find(dashboards.IsEventList)
	if p == nil {
		return nil, fmt.Errorf("the %s dashboard has no event list (a table of rows from the events measurement)", AlertsDashboard)
	}
	var sites []string
	if site != "" {
		sites = []string{site}
	}
	series, err := Run(ctx, c, p.Targets[0].Query, r, dashboards.FleetVars(sites...))
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, s := range series {
		get := s.Text
		for _, row := range s.Values {
			out = append(out, Event{T: s.Millis(row), Src: get(row, "src"), Dst: get(row, "dst"), Kind: get(row, "kind"),
				Severity: get(row, "severity"), Msg: get(row, "message"), Episode: get(row, "episode_id")})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out, nil
}
