package alerting

import "maps"

// severities in increasing order (the contract's event severities).
var severities = map[string]int{"info": 0, "warning": 1, "critical": 2}

// keepIncidentIdentity is the labels of an incident's alert after an update: those it opened
// with (so src, dst and their sites, which follow the location, do not change it when evidence
// moves it, and a link recovering, which lowers its severity, does not page it again), except a
// severity that rises (an escalation pages, as a link alert's does) and the team, which follows
// the location (the new owner is paged).
func keepIncidentIdentity(opened, now map[string]string) map[string]string {
	out := maps.Clone(opened)
	if severities[now[LabelSeverity]] > severities[opened[LabelSeverity]] {
		out[LabelSeverity] = now[LabelSeverity]
	}
	delete(out, LabelTeam)
	if t, ok := now[LabelTeam]; ok {
		out[LabelTeam] = t
	}
	return out
}
