package results

import "sort"

// OpenAlerts keeps, per link and alert kind, the last alert event unless an event that closes
// that kind came after it on that link. Events are in time order. closes maps each recovery
// kind to the alert kind it ends (the contract's table).
func OpenAlerts(events []Event, closes map[string]string) []Event {
	alerts := map[string]bool{}
	for _, alert := range closes {
		alerts[alert] = true
	}
	type key struct{ src, dst, kind string }
	open := map[key]Event{}
	var order []key
	for _, e := range events {
		if alerts[e.Kind] {
			k := key{e.Src, e.Dst, e.Kind}
			if _, seen := open[k]; !seen {
				order = append(order, k)
			}
			open[k] = e
			continue
		}
		if alert, ok := closes[e.Kind]; ok {
			delete(open, key{e.Src, e.Dst, alert})
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
