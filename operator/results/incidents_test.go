package results

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
)

var incT0 = time.Date(2026, 11, 24, 21, 10, 0, 0, time.UTC)

func at(d time.Duration) int64 { return incT0.Add(d).UnixMilli() }

// The demo's two incidents: the carrier hop (opened, a link joins) and the lost site dst-c
// (opened, then resolved).
func demoIncidents() []IncidentEvent {
	since := float64(at(0))
	return []IncidentEvent{
		{T: at(12 * time.Minute), Episode: "incident-site-dst-c-1", Kind: "incident_resolved", Severity: "info",
			LocationType: "site", Location: "dst-c", SinceMs: float64(at(3 * time.Minute)),
			Links: "src-1 → dst-c (unreachable); src-2 → dst-c (unreachable)", Msg: "site dst-c: its 2 links have recovered (open 9 min)"},
		{T: at(time.Minute), Episode: "incident-hop-1", Kind: "incident_opened", Severity: "critical", LocationType: "hop",
			Location: "198.18.50.1", ASN: 64512, SinceMs: since, Links: "src-1 → dst-a (throughput_collapse); src-2 → dst-b (throughput_collapse)",
			LinksDegraded: 2, Msg: "2 of 2 measured links through hop 198.18.50.1 (AS 64512) are degraded (throughput_collapse)"},
		{T: at(3 * time.Minute), Episode: "incident-site-dst-c-1", Kind: "incident_opened", Severity: "critical",
			LocationType: "site", Location: "dst-c", SinceMs: float64(at(3 * time.Minute)),
			Links: "src-1 → dst-c (unreachable); src-2 → dst-c (unreachable)", Msg: "2 of 2 measured links to site dst-c are degraded (unreachable)"},
		{T: at(6 * time.Minute), Episode: "incident-hop-1", Kind: "incident_updated", Severity: "critical", LocationType: "hop",
			Location: "198.18.50.1", ASN: 64512, SinceMs: since,
			Links:         "src-1 → dst-a (throughput_collapse); src-2 → dst-b (throughput_collapse); src-3 → dst-a (high_loss, throughput_collapse)",
			LinksDegraded: 3, Msg: "3 of 3 measured links through hop 198.18.50.1 (AS 64512) are degraded (throughput_collapse, high_loss)"},
	}
}

func TestIncidentsFoldByEpisodeOpenOnesFirst(t *testing.T) {
	got, err := IncidentsFrom(demoIncidents())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d incidents, want 2: %+v", len(got), got)
	}
	hop, site := got[0], got[1]
	if !hop.Open || hop.Location != "hop 198.18.50.1 (AS 64512)" || !hop.Since.Equal(incT0) || !hop.Updated.Equal(incT0.Add(6*time.Minute)) {
		t.Errorf("the open hop incident first: %+v", hop)
	}
	want := []IncidentLink{{"src-1", "dst-a", []string{"throughput_collapse"}}, {"src-2", "dst-b", []string{"throughput_collapse"}},
		{"src-3", "dst-a", []string{"high_loss", "throughput_collapse"}}}
	if !reflect.DeepEqual(hop.Links, want) || hop.LinksDegraded != 3 {
		t.Errorf("links as of its latest update: %+v", hop.Links)
	}
	if hop.Silence != "longhaul silence --incident incident-hop-1 --for 2h --comment TEXT" || !strings.HasPrefix(hop.Evidence, "3 of 3") {
		t.Errorf("silence %q, evidence %q", hop.Silence, hop.Evidence)
	}
	if site.Open || site.Location != "site dst-c" || !site.Resolved.Equal(incT0.Add(12*time.Minute)) || site.Silence != "" ||
		site.Severity != "critical" || !strings.Contains(site.Outcome, "recovered") || !strings.HasPrefix(site.Evidence, "2 of 2") {
		t.Errorf("the resolved site incident: %+v", site)
	}
}

func TestAnIncidentFromAJobWithoutLinkListsKeepsItsCount(t *testing.T) {
	got, err := IncidentsFrom([]IncidentEvent{{T: at(0), Episode: "e", Kind: "incident_opened", Severity: "warning",
		LocationType: "host", Location: "src-1", LinksDegraded: 2, Msg: "m"}})
	if err != nil || len(got) != 1 || got[0].Links != nil || got[0].LinksDegraded != 2 || got[0].Location != "host src-1" {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestALinkListIsReadAsTheJobWritesItAndABadOneSaysWhere(t *testing.T) {
	got, err := ParseLinkList("a → d1; b → d1 (high_loss, unreachable)")
	want := []IncidentLink{{Src: "a", Dst: "d1"}, {Src: "b", Dst: "d1", Kinds: []string{"high_loss", "unreachable"}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v %v", got, err)
	}
	for _, bad := range []string{"a -> d1", "a → ", "a → d1 (unreachable", "a b → d1", strings.Repeat("x", 5000)} {
		_, err := ParseLinkList(bad)
		if err == nil || len(err.Error()) > 200 {
			t.Errorf("%.40q: error %v (want one, short)", bad, err)
		}
	}
}

// incidentDB answers the incidents panel's query with the demo's rows (newest first, as the
// panel orders them) and nothing else.
type incidentDB struct{ asked []string }

func (f *incidentDB) Query(_ context.Context, q string) ([]influx.Series, error) {
	f.asked = append(f.asked, q)
	if !strings.Contains(q, "'incident_opened'") {
		return nil, nil
	}
	s := influx.Series{Name: "events", Columns: []string{"time", "episode_id", "kind", "severity", "location_type", "location",
		"asn", "since_ms", "links", "links_degraded", "message"}}
	events := demoIncidents()
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		asn := any(nil)
		if e.ASN > 0 {
			asn = e.ASN
		}
		s.Values = append(s.Values, []any{float64(e.T), e.Episode, e.Kind, e.Severity, e.LocationType, e.Location, asn,
			e.SinceMs, e.Links, e.LinksDegraded, e.Msg})
	}
	return []influx.Series{s}, nil
}

func TestIncidentsAreLoadedWithTheMeshOverviewsIncidentsPanel(t *testing.T) {
	db := &incidentDB{}
	got, err := LoadIncidents(context.Background(), db, dashboardsDir(), dashboards.Range{From: incT0, To: incT0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(db.asked) != 1 || !strings.Contains(db.asked[0], `FROM "daily"."events"`) || strings.Contains(db.asked[0], "$timeFilter") {
		t.Fatalf("asked %q", db.asked)
	}
	if len(got) != 2 || got[0].ID != "incident-hop-1" || len(got[0].Links) != 3 || got[1].Open {
		t.Fatalf("%+v", got)
	}
}

// A resolved incident shows every link it explained while open, with every kind: links leave it
// as they recover, and the demo's hop incident (two collapsed links, then one lossy) resolved
// with an update naming one.
func TestAResolvedIncidentShowsEveryLinkItHeld(t *testing.T) {
	hop := func(d time.Duration, kind, links string) IncidentEvent {
		return IncidentEvent{T: at(d), Episode: "incident-hop-2", Kind: kind, Severity: "critical", LocationType: "hop",
			Location: "10.66.10.2", SinceMs: float64(at(0)), Links: links, Msg: kind}
	}
	events := []IncidentEvent{
		hop(0, "incident_opened", "lab-s1 → dst-a (throughput_collapse); lab-s2 → dst-d (throughput_collapse)"),
		hop(3*time.Minute, "incident_updated", "lab-s1 → dst-a (high_loss)"),
	}
	got, err := IncidentsFrom(events)
	if err != nil || len(got[0].Links) != 1 {
		t.Fatalf("open: its links as of its latest update: %+v %v", got, err)
	}
	got, err = IncidentsFrom(append(events, hop(4*time.Minute, "incident_resolved", "lab-s1 → dst-a (high_loss)")))
	want := []IncidentLink{{"lab-s1", "dst-a", []string{"throughput_collapse", "high_loss"}}, {"lab-s2", "dst-d", []string{"throughput_collapse"}}}
	if err != nil || got[0].Open || !reflect.DeepEqual(got[0].Links, want) || got[0].LinksDegraded != 2 {
		t.Fatalf("resolved: %+v %v", got, err)
	}
}
