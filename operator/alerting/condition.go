package alerting

import "longhaul/ingest/contract"

// A diagnosis is a condition of its link, not a moment: the diagnosis detector raises it again
// when a probe of the link enters the same cause again, or another probe of the link does (the
// demo's lab-s2 → dst-d was mailed host-tuning-limited twice, since 21:16:18 and since 21:21:52,
// in one mail). One link and one cause are one notice: a diagnosis re-raised while its
// predecessor lives replaces it (the same labels, so Alertmanager sees one alert and mails
// nothing new), keeping its start. Other notices (a route change, a stall) are moments: one each.

// conditionKey is the state key of e's condition, when e is a link's diagnosis with a cause.
func conditionKey(e Event) (string, bool) {
	if e.Kind != contract.KindDiagnosis || e.Cause == "" || e.Src == Wildcard || e.Dst == Wildcard {
		return "", false
	}
	return "condition|" + e.Kind + "|" + e.Key() + "|" + e.Cause, true
}

// isCondition reports whether e's notice is labelled as a condition (link, cause and the
// detector) rather than as a moment (its own time in LabelNotice).
func isCondition(e Event) bool {
	_, ok := conditionKey(e)
	return ok
}

// CauseLossLimited is the diagnosis cause (event schema's cause enum) that a recovered loss
// makes stale.
const CauseLossLimited = "loss_limited"

// staleConditions resolves, at e's time, the live diagnoses of e's link that its recovery from
// alertKind ends: recovered throughput ends every cause (its runs are no longer limited),
// recovered loss ends loss_limited. Otherwise a diagnosis muted while an incident held its link
// would reach a person when the incident resolved, after its cause was gone (the demo's lab-s1 →
// dst-a loss_limited, mailed once the hop had healed).
func (s *State) staleConditions(e Event, alertKind string) []Alert {
	var out []Alert
	for _, k := range sorted(s.index().byLink[e.Key()]) {
		ent := s.open[k]
		ev := ent.event
		if !isCondition(ev) || ev.Src != e.Src || ev.Dst != e.Dst || !ent.expires.After(e.Time()) {
			continue
		}
		if alertKind == contract.KindThroughputCollapse || (alertKind == contract.KindHighLoss && ev.Cause == CauseLossLimited) {
			out = append(out, ent.alert.resolved(e.Time()))
			s.remove(k)
		}
	}
	return out
}
