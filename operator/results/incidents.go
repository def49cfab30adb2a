package results

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"longhaul/ingest/contract"
	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
)

// An incident is the job's correlator naming one location (a hop and its AS, a destination
// site, a source host) for several degraded links at once (alerting/README.md, *Incidents*).
// InfluxDB holds its events, one row per change: the mesh overview's incidents panel reads them,
// and IncidentsFrom folds them into incidents by episode.

// IncidentLink is one link an incident explains, with the alert kinds open on it.
type IncidentLink struct {
	Src   string   `json:"src"`
	Dst   string   `json:"dst"`
	Kinds []string `json:"kinds,omitempty"`
}

// Incident is one incident as its events leave it.
type Incident struct {
	ID       string         `json:"id"`       // its episode: what `longhaul silence --incident` takes
	Location string         `json:"location"` // "hop 198.18.50.1 (AS 64512)", "site dst-c", "host src-1"
	Open     bool           `json:"open"`
	Severity string         `json:"severity"` // of its latest opened or updated event
	Since    time.Time      `json:"since"`
	Updated  time.Time      `json:"updated"`           // its latest event
	Resolved time.Time      `json:"resolved,omitzero"` // when it resolved (not open)
	Links    []IncidentLink `json:"links"`
	// LinksDegraded is how many links it explains, when the links themselves were not stored (a
	// job before evidence.link_list).
	LinksDegraded int    `json:"links_degraded"`
	Evidence      string `json:"evidence"`          // the correlator's message: why this location, for and against
	Outcome       string `json:"outcome,omitempty"` // its resolution's message
	Silence       string `json:"silence,omitempty"` // the command that silences it, while open

	held []IncidentLink // every link it explained while open, with every kind: a resolved one's Links
}

// IncidentEvent is one row of the incidents panel.
type IncidentEvent struct {
	T                             int64
	Episode, Kind, Severity       string
	LocationType, Location, Links string
	ASN, SinceMs, LinksDegraded   float64 // 0 when absent
	Msg                           string
}

// SilenceCommand is how an open incident is silenced (the mail prints the same).
func SilenceCommand(id string) string {
	return "longhaul silence --incident " + id + " --for 2h --comment TEXT"
}

// LoadIncidents runs the mesh overview's incidents panel over r and folds its rows.
func LoadIncidents(ctx context.Context, c Querier, dir string, r dashboards.Range) ([]Incident, error) {
	d, err := dashboards.LoadUID(dir, MeshDashboard)
	if err != nil {
		return nil, err
	}
	return incidentsOf(ctx, c, d, r)
}

// incidentsOf runs dashboard d's incidents panel over r and folds its rows.
func incidentsOf(ctx context.Context, c Querier, d *dashboards.Dashboard, r dashboards.Range) ([]Incident, error) {
	p := d.Find(dashboards.IsIncidentList)
	if p == nil {
		return nil, fmt.Errorf("the %s dashboard has no incidents panel (a table of incident_opened rows from the events measurement)", d.UID)
	}
	series, err := Run(ctx, c, p.Targets[0].Query, r, nil)
	if err != nil {
		return nil, err
	}
	return IncidentsFrom(incidentEvents(series))
}

func incidentEvents(series []influx.Series) []IncidentEvent {
	var out []IncidentEvent
	for _, s := range series {
		str := s.Text
		num := func(row []any, col string) float64 {
			if i := s.Col(col); i >= 0 {
				if f, ok := influx.Float(row[i]); ok {
					return f
				}
			}
			return 0
		}
		for _, row := range s.Values {
			out = append(out, IncidentEvent{T: s.Millis(row), Episode: str(row, "episode_id"), Kind: str(row, "kind"),
				Severity: str(row, "severity"), LocationType: str(row, "location_type"), Location: str(row, "location"),
				Links: str(row, "links"), ASN: num(row, "asn"), SinceMs: num(row, "since_ms"),
				LinksDegraded: num(row, "links_degraded"), Msg: str(row, "message")})
		}
	}
	return out
}

// IncidentsFrom folds incident events (any order) into incidents: open ones first, the newest
// first, then the resolved ones, the latest resolution first.
func IncidentsFrom(events []IncidentEvent) ([]Incident, error) {
	sort.SliceStable(events, func(i, j int) bool { return events[i].T < events[j].T })
	byID := map[string]*Incident{}
	var order []string
	for _, e := range events {
		id := e.Episode
		if id == "" {
			id = e.LocationType + ":" + e.Location
		}
		inc, ok := byID[id]
		if !ok {
			inc = &Incident{ID: id, Since: time.UnixMilli(e.T).UTC()}
			byID[id], order = inc, append(order, id)
		}
		if err := inc.apply(e); err != nil {
			return nil, err
		}
	}
	out := make([]Incident, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Open != b.Open {
			return a.Open
		}
		if a.Open {
			return a.Since.After(b.Since)
		}
		return a.Resolved.After(b.Resolved)
	})
	return out, nil
}

// apply takes one of the incident's events, in time order.
func (inc *Incident) apply(e IncidentEvent) error {
	t := time.UnixMilli(e.T).UTC()
	if e.SinceMs > 0 {
		inc.Since = time.UnixMilli(int64(e.SinceMs)).UTC()
	}
	inc.Updated = t
	if e.Location != "" {
		inc.Location = locationName(e.LocationType, e.Location, int64(e.ASN))
	}
	if e.Links != "" {
		links, err := ParseLinkList(e.Links)
		if err != nil {
			return fmt.Errorf("incident %s at %s: %w", inc.ID, t.Format(time.RFC3339), err)
		}
		inc.Links = links
		inc.held = mergeLinks(inc.held, links)
	}
	if e.LinksDegraded > 0 {
		inc.LinksDegraded = int(e.LinksDegraded)
	}
	if len(inc.Links) > 0 {
		inc.LinksDegraded = len(inc.Links)
	}
	if e.Kind == contract.KindIncidentResolved {
		// an open incident shows its links as of its latest update; a resolved one, its extent:
		// links leave it as they recover, and its last update may name one of the several it had
		inc.Open, inc.Resolved, inc.Outcome, inc.Silence = false, t, e.Msg, ""
		if len(inc.held) > 0 {
			inc.Links, inc.LinksDegraded = inc.held, len(inc.held)
		}
		return nil
	}
	inc.Open, inc.Resolved, inc.Outcome = true, time.Time{}, ""
	inc.Severity, inc.Evidence, inc.Silence = e.Severity, e.Msg, SilenceCommand(inc.ID)
	return nil
}

// locationName is a location as people say it (the bridge's Location.String).
func locationName(typ, name string, asn int64) string {
	s := strings.TrimSpace(typ + " " + name)
	if asn > 0 {
		s += fmt.Sprintf(" (AS %d)", asn)
	}
	return s
}

// mergeLinks adds links to held, a link once, with the union of its kinds, in first-seen order.
func mergeLinks(held, links []IncidentLink) []IncidentLink {
	for _, l := range links {
		i := slices.IndexFunc(held, func(h IncidentLink) bool { return h.Src == l.Src && h.Dst == l.Dst })
		if i < 0 {
			held = append(held, IncidentLink{Src: l.Src, Dst: l.Dst, Kinds: slices.Clone(l.Kinds)})
			continue
		}
		for _, k := range l.Kinds {
			if !slices.Contains(held[i].Kinds, k) {
				held[i].Kinds = append(held[i].Kinds, k)
			}
		}
	}
	return held
}

// maxLinkListShown bounds how much of a bad link list an error quotes.
const maxLinkListShown = 80

// ParseLinkList reads an incident's evidence.link_list, "a → d1 (throughput_collapse); b → d1
// (high_loss, unreachable)", as the job writes it (IncidentEvents.linkList).
func ParseLinkList(s string) ([]IncidentLink, error) {
	var out []IncidentLink
	for _, part := range strings.Split(s, "; ") {
		src, rest, ok := strings.Cut(part, " → ")
		dst, kinds, _ := strings.Cut(rest, " (")
		if !ok || src == "" || dst == "" || strings.ContainsAny(src+dst, " ()") ||
			(kinds != "" && !strings.HasSuffix(kinds, ")")) {
			return nil, fmt.Errorf("link list: %q is not \"src → dst (kind, kind)\"", shortened(part, maxLinkListShown))
		}
		l := IncidentLink{Src: src, Dst: dst}
		if kinds != "" {
			l.Kinds = strings.Split(strings.TrimSuffix(kinds, ")"), ", ")
		}
		out = append(out, l)
	}
	return out, nil
}

func shortened(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
