package dashboards

import (
	"regexp"
	"strings"

	"longhaul/ingest/contract"
)

// Panels are found by what they show, not by their id or title (both change when a dashboard
// is edited): a role is a predicate on a panel's type, queries and transformations.

// Find returns the first panel that has the role, or nil.
func (d *Dashboard) Find(role func(*Panel) bool) *Panel {
	for i := range d.Panels {
		if role(&d.Panels[i]) {
			return &d.Panels[i]
		}
	}
	return nil
}

var fromMeasurement = regexp.MustCompile(`FROM\s+(?:"[^"]+"\.)?"([^"]+)"`)

// Reads returns the measurement a query selects from ("" when it names none).
func Reads(query string) string {
	if m := fromMeasurement.FindStringSubmatch(query); m != nil {
		return m[1]
	}
	return ""
}

// IsEventList is a table of single events: one query on the events measurement, rows not
// grouped (each row one event).
func IsEventList(p *Panel) bool {
	return p.Type == "table" && len(p.Targets) == 1 && Reads(p.Targets[0].Query) == "events" &&
		!strings.Contains(p.Targets[0].Query, "GROUP BY") && !IsIncidentList(p)
}

// IsIncidentList is a table of the incident correlator's events: rows of the events measurement
// whose query selects incident_opened (the mesh overview's first panel).
func IsIncidentList(p *Panel) bool {
	return p.Type == "table" && len(p.Targets) == 1 && Reads(p.Targets[0].Query) == "events" &&
		strings.Contains(p.Targets[0].Query, "'"+contract.KindIncidentOpened+"'")
}

// IsLinkList is a table with one row per link: link statistics grouped by src and dst, not
// folded into a src × dst matrix.
func IsLinkList(p *Panel) bool {
	if p.Type != "table" || p.Transform("groupingToMatrix") != nil || len(p.Targets) == 0 {
		return false
	}
	for _, t := range p.Targets {
		if Reads(t.Query) != "link_stats" || !strings.Contains(t.Query, `GROUP BY "src", "dst"`) {
			return false
		}
	}
	return true
}
