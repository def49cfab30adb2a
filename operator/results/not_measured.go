package results

import (
	"strings"

	"longhaul/operator/dashboards"
	"longhaul/operator/render"
)

// notMeasured gathers a link section's charts of kinds the link has no sample of in the range
// (no one-way latency where no pScheduler latency test runs, no ping before the first one): the
// demo's report drew 10 empty one-way latency charts, two per link. Each kind is one line.
type notMeasured struct {
	kinds  []string            // What(need), in the order the charts come
	charts map[string][]string // kind → the titles of its charts
}

func (m *notMeasured) add(n dashboards.Need, title string) {
	kind := What(n)
	if m.charts == nil {
		m.charts = map[string][]string{}
	}
	if _, seen := m.charts[kind]; !seen {
		m.kinds = append(m.kinds, kind)
	}
	m.charts[kind] = append(m.charts[kind], title)
}

// items are the section's lines, one per kind, titled by its charts: "One-way delay; One-way
// loss": "not measured on this link: no one-way latency (pScheduler) samples for a → b in the
// last 24h".
func (m *notMeasured) items(s Scope) []render.Item {
	out := make([]render.Item, 0, len(m.kinds))
	for _, kind := range m.kinds {
		out = append(out, render.Item{Note: &render.Note{Title: strings.Join(m.charts[kind], "; "),
			Why: render.Empty("not measured on this link: no %s%s %s", kind, s.of(), s.last())}})
	}
	return out
}
