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
	return "condition|" + e.Kind + "|" + e.link() + "|" + e.Cause, true
}

// isCondition reports whether e's notice is labelled as a condition (link, cause and the
// detector) rather than as a moment (its own time in LabelNotice).
func isCondition(e Event) bool {
	_, ok := conditionKey(e)
	return ok
}
