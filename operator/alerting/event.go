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
	// Location and Links are an incident's (event.v4): where the fault is and the degraded
	// links it explains. Nil and empty for every other event.
	Location *Location `json:"location"`
	Links    []Link    `json:"links"`
}

// Location is where an incident is: a hop (a router address, with its AS when the traceroute
// said), a destination site or a source host.
type Location struct {
	Type string `json:"type"` // hop, site, host
	Name string `json:"name"`
	ASN  *int64 `json:"asn"`
}

// Link is one degraded link an incident explains, with the alert kinds open on it.
type Link struct {
	Src   string   `json:"src"`
	Dst   string   `json:"dst"`
	Kinds []string `json:"kinds"`
}

// String is the location as people say it: "hop 198.18.50.1 (AS 64512)", "site dst-a".
func (l Location) String() string {
	s := l.Type + " " + l.Name
	if l.ASN != nil {
		s += fmt.Sprintf(" (AS %d)", *l.ASN)
	}
	return s
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

// incident reports whether e is about an incident (it names a location).
func (e Event) incident() bool { return e.Location != nil }

// incidentID names e's incident: its episode, else its location (an incident always has an
// episode in the contract; the fallback keeps one incident one alert regardless).
func (e Event) incidentID() string {
	if e.EpisodeID != "" {
		return e.EpisodeID
	}
	return e.Location.Type + ":" + e.Location.Name
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
func (e Event) link() string { return linkKey(e.Src, e.Dst) }

// linkKey names a link "src|dst" (src "*" for a destination's site-wide alert).
func linkKey(src, dst string) string { return src + "|" + dst }
