package alerting

import (
	"encoding/json"
	"fmt"
	"time"
)

// Event is the part of an event message (every version) the bridge reads.
type Event struct {
	Kind      string         `json:"kind"`
	Src       string         `json:"src"`
	Dst       string         `json:"dst"`
	ProbeID   string         `json:"probe_id"`
	TS        int64          `json:"ts"`
	Severity  string         `json:"severity"`
	Message   string         `json:"message"`
	Protocol  string         `json:"protocol"`
	EpisodeID string         `json:"episode_id"`
	Cause     string         `json:"cause"`
	Evidence  map[string]any `json:"evidence"`
}

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
	return e, nil
}

// Time is the event's time.
func (e Event) Time() time.Time { return time.UnixMilli(e.TS).UTC() }

// evidenceString is evidence[name] when it is a non-empty string.
func (e Event) evidenceString(name string) string {
	s, _ := e.Evidence[name].(string)
	return s
}

// evidenceNumber is evidence[name] when it is a number.
func (e Event) evidenceNumber(name string) (float64, bool) {
	f, ok := e.Evidence[name].(float64)
	return f, ok
}

// link is "src|dst", the key of everything known about one link.
func (e Event) link() string { return e.Src + "|" + e.Dst }
