package sample

import (
	"encoding/json"
	"fmt"
	"time"
)

// Event is an event message (event.v1 to v4): what the Flink job's detectors and the watchdog
// raise, and what the alert bridge reads. Fields a version or a producer leaves out are empty and
// not written.
type Event struct {
	Schema    string         `json:"schema"`
	Version   int            `json:"version"`
	Kind      string         `json:"kind"`
	Src       string         `json:"src"`
	Dst       string         `json:"dst"`
	ProbeID   string         `json:"probe_id"`
	TS        int64          `json:"ts"`
	Severity  string         `json:"severity"`
	Message   string         `json:"message"`
	Protocol  string         `json:"protocol,omitempty"`
	EpisodeID string         `json:"episode_id,omitempty"`
	Cause     string         `json:"cause,omitempty"`
	Evidence  map[string]any `json:"evidence,omitempty"`
	// PathBefore, PathAfter and ChangedHops are a route change's (event.v3): the dominant path
	// before and after, one address (or *) a hop, and the hops that differ.
	PathBefore  []string     `json:"path_before,omitempty"`
	PathAfter   []string     `json:"path_after,omitempty"`
	ChangedHops []ChangedHop `json:"changed_hops,omitempty"`
	// Location and Links are an incident's (event.v4): where the fault is and the degraded
	// links it explains. Nil and empty for every other event.
	Location *Location `json:"location,omitempty"`
	Links    []Link    `json:"links,omitempty"`
}

// ChangedHop is one hop of a route change whose address differs: nil where the path had none.
type ChangedHop struct {
	TTL    int     `json:"ttl"`
	Before *string `json:"before"`
	After  *string `json:"after"`
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

// Key is the event's link, "src|dst": its Kafka key, as every Longhaul topic is keyed (src "*"
// for a destination's site-wide event).
func (e Event) Key() string { return LinkKey(e.Src, e.Dst) }

// Time is the event's time.
func (e Event) Time() time.Time { return time.UnixMilli(e.TS).UTC() }

// Incident reports whether e is about an incident (it names a location).
func (e Event) Incident() bool { return e.Location != nil }

// IncidentID names e's incident: its episode, else its location (an incident always has an
// episode in the contract; the fallback keeps one incident one alert regardless).
func (e Event) IncidentID() string {
	if e.EpisodeID != "" {
		return e.EpisodeID
	}
	return e.Location.Type + ":" + e.Location.Name
}

// EvidenceString is evidence[name] when it is a string ("" otherwise).
func (e Event) EvidenceString(name string) string {
	s, _ := e.Evidence[name].(string)
	return s
}

// EvidenceNumber is evidence[name] when it is a number.
func (e Event) EvidenceNumber(name string) (float64, bool) {
	f, ok := e.Evidence[name].(float64)
	return f, ok
}

// Marshal is the event as JSON.
func (e Event) Marshal() []byte {
	b, _ := json.Marshal(e) // strings, numbers, booleans, maps and lists of them: cannot fail
	return b
}
