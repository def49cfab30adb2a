package alerting

import (
	"encoding/json"
	"fmt"

	"longhaul/ingest/sample"
)

// Event is an event message of any version, as the contract's Go form has it (ingest/sample).
type Event = sample.Event

// Location is where an incident is: a hop, a destination site or a source host.
type Location = sample.Location

// Link is one degraded link an incident explains, with the alert kinds open on it.
type Link = sample.Link

// ParseEvent reads one event record, of any version. The Flink job and the watchdog validate what they write;
// the bridge only refuses what it cannot use (no kind, no ends, no time).
func ParseEvent(b []byte) (Event, error) {
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		return e, fmt.Errorf("unreadable event: %w", err)
	}
	if e.Kind == "" || e.Src == "" || e.Dst == "" || e.TS <= 0 {
		return e, fmt.Errorf("event without kind, src, dst or ts")
	}
	if l := e.Location; l != nil && (l.Type == "" || l.Name == "") {
		return e, fmt.Errorf("%s: location without type or name", e.Kind)
	}
	for _, l := range e.Links {
		if l.Src == "" || l.Dst == "" {
			return e, fmt.Errorf("%s: a link without src or dst", e.Kind)
		}
	}
	return e, nil
}
