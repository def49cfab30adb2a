package results

import (
	"fmt"
	"strings"

	"longhaul/operator/render"
)

// IncidentSection is the report's first section: the incidents of the range, open first, one
// row each with its place, links, evidence and, while open, the command that silences it.
func IncidentSection(incidents []Incident, s Scope) render.Section {
	t := &render.Table{Title: "Open and recent incidents",
		Header: []string{"state", "place", "since", "links", "evidence", "silence"}}
	for _, inc := range incidents {
		state := "OPEN (" + inc.Severity + ")"
		evidence := inc.Evidence
		if !inc.Open {
			state = "resolved " + render.FormatTime(inc.Resolved.UnixMilli())
			evidence = strings.TrimSpace(inc.Outcome + "; " + inc.Evidence)
		}
		t.Rows = append(t.Rows, []string{state, inc.Location, render.FormatTime(inc.Since.UnixMilli()),
			linkLines(inc), evidence, inc.Silence})
	}
	if len(t.Rows) == 0 {
		t.Why = render.Empty("no incidents %s", s.last())
	}
	return render.Section{Title: "Incidents",
		Subtitle: "One location (a hop and its AS, a destination site, a source host) explaining several degraded links; " +
			"their own alerts are muted while it is open. `longhaul incidents` prints the same.",
		Items: []render.Item{{Table: t}}}
}

// reportIncidentLinks is how many of an incident's links its report row names: a carrier hop
// under a fleet's mesh holds hundreds (the fleet benchmark's held 185), which would push every
// chart of the report out of sight.
const reportIncidentLinks = 8

// linkLines is an incident's links, "src → dst (kind, kind)" separated by "; ", the first
// reportIncidentLinks of them and how many more, or their count when its events did not store
// them.
func linkLines(inc Incident) string {
	if len(inc.Links) == 0 {
		return LinkCount(inc.LinksDegraded) + " (not stored by this job version)"
	}
	shown := inc.Links
	if len(shown) > reportIncidentLinks {
		shown = shown[:reportIncidentLinks]
	}
	parts := make([]string, 0, len(shown)+1)
	for _, l := range shown {
		p := l.Src + " → " + l.Dst
		if len(l.Kinds) > 0 {
			p += " (" + strings.Join(l.Kinds, ", ") + ")"
		}
		parts = append(parts, p)
	}
	if more := len(inc.Links) - len(shown); more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more (longhaul incidents lists them all)", more))
	}
	return strings.Join(parts, "; ")
}

// LinkCount is "1 link", "4 links".
func LinkCount(n int) string {
	if n == 1 {
		return "1 link"
	}
	return fmt.Sprintf("%d links", n)
}

// incidentCells marks each link of an open incident: the matrices outline it, its incident in
// the cell's tooltip.
func incidentCells(incidents []Incident) map[[2]string]string {
	out := map[[2]string]string{}
	for _, inc := range incidents {
		if !inc.Open {
			continue
		}
		for _, l := range inc.Links {
			k := [2]string{l.Src, l.Dst}
			note := "open incident at " + inc.Location + " (" + inc.ID + ")"
			if prev, ok := out[k]; ok {
				note = prev + "; " + note
			}
			out[k] = note
		}
	}
	return out
}
