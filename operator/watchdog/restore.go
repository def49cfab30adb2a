package watchdog

import (
	"encoding/json"
	"time"

	"longhaul/ingest/contract"
)

// Episodes rebuilds the open episodes of the watchdog instance from events read back from the
// events topic, in the order they were written (one subject's events share a key, so a partition,
// so an order): for each component and subject the last of its pipeline_degraded and
// pipeline_recovered decides. Events of other instances, other probes, other kinds and unreadable
// records are skipped.
func Episodes(records [][]byte, instance string) []Episode {
	last := map[string]Event{}
	var order []string
	for _, raw := range records {
		var e Event
		if json.Unmarshal(raw, &e) != nil || e.ProbeID != ProbeID || componentOf(e) == "" {
			continue
		}
		if by, _ := e.Evidence[EvidenceInstance].(string); by != instance {
			continue
		}
		if e.Kind != contract.KindPipelineDegraded && e.Kind != contract.KindPipelineRecovered {
			continue
		}
		key := Finding{Component: componentOf(e), Subject: e.Src}.Key()
		if _, ok := last[key]; !ok {
			order = append(order, key)
		}
		last[key] = e
	}
	var open []Episode
	for _, key := range order {
		e := last[key]
		if e.Kind != contract.KindPipelineDegraded {
			continue
		}
		since := time.UnixMilli(e.TS)
		if s, ok := number(e.Evidence["since_ms"]); ok && s > 0 {
			since = time.UnixMilli(int64(s))
		}
		ev := map[string]any{}
		for k, v := range e.Evidence {
			if k != "component" && k != "since_ms" && k != EvidenceInstance {
				ev[k] = v
			}
		}
		open = append(open, Episode{Component: componentOf(e), Subject: e.Src, ID: e.EpisodeID, Since: since,
			Severity: e.Severity, Message: e.Message, Evidence: ev})
	}
	return open
}

// number reads a JSON number (float64 after Unmarshal into any).
func number(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// Resume takes up the open episodes after a restart: the tracker knows them as raised, and each
// silent agent among them stays in the book as its alert last saw it (last seen, silence limit),
// so it is judged again as it was, even if its last record is older than what the watchdog reads
// back.
func Resume(t *Tracker, book *AgentBook, open []Episode) {
	t.Restore(open)
	for _, e := range open {
		if e.Component != ComponentAgent || e.Subject == AnySubject {
			continue
		}
		last, _ := number(e.Evidence["last_seen_ms"])
		limit, _ := number(e.Evidence["limit_s"])
		if last > 0 && limit > 0 {
			book.Seed(e.Subject, time.UnixMilli(int64(last)), time.Duration(limit*float64(time.Second)))
		}
	}
}
