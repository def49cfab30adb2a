package alerting

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/contract"
)

var asn64512 = int64(64512)

var hop = Location{Type: "hop", Name: "198.18.50.1", ASN: &asn64512}

func incident(kind string, at time.Duration, loc Location, links ...Link) Event {
	return Event{Kind: kind, Src: Wildcard, Dst: Wildcard, ProbeID: "incident-correlator", TS: t0.Add(at).UnixMilli(),
		Severity: "critical", Message: "links through " + loc.String() + " are degraded", EpisodeID: "inc-1",
		Location: &loc, Links: links, Evidence: map[string]any{"location": loc.Name, "location_type": loc.Type}}
}

func link(src, dst string, kinds ...string) Link { return Link{Src: src, Dst: dst, Kinds: kinds} }

// byName splits a change's alerts into the incident's own and its members' (by "src|dst").
func byName(alerts []Alert) (incidents []Alert, members map[string]Alert) {
	members = map[string]Alert{}
	for _, a := range alerts {
		if a.Labels[LabelAlertname] == AlertIncidentMember {
			members[a.Labels[LabelSrc]+"|"+a.Labels[LabelDst]] = a
		} else {
			incidents = append(incidents, a)
		}
	}
	return incidents, members
}

func keys(m map[string]Alert) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestAnOpenedIncidentIsOneAlertNamingItsLocationFirstAndOneMemberPerLink(t *testing.T) {
	b, err := os.ReadFile("../../ingest/schemas/examples/event.v4/valid/incident-opened-carrier-hop.json")
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	s := testState()
	ch := s.Apply(e)
	if len(ch.Resolved) != 0 {
		t.Fatalf("resolved %+v", ch.Resolved)
	}
	incidents, members := byName(ch.Firing)
	if len(incidents) != 1 || len(members) != 4 {
		t.Fatalf("%d incident alerts and %d members, want 1 and 4", len(incidents), len(members))
	}
	a := incidents[0]
	for k, v := range map[string]string{"alertname": "incident_opened", "incident": "incident-hop-198.18.50.1-1325746860000",
		"role": "alert", "severity": "critical", "source": "longhaul", "src": "*", "dst": "*"} {
		if a.Labels[k] != v {
			t.Errorf("label %s=%q, want %q", k, a.Labels[k], v)
		}
	}
	for k, v := range map[string]string{
		AnnLocation: "hop 198.18.50.1 (AS 64512)",
		AnnHeadline: "Incident at hop 198.18.50.1 (AS 64512): 4 links",
		AnnLinks: "perfsonar.ihep.ac.cn → cclhcone01.in2p3.fr (throughput_collapse)\n" +
			"perfsonar.ihep.ac.cn → psonar.physics.ox.ac.uk (throughput_collapse)\n" +
			"ps.slac.stanford.edu → cclhcone01.in2p3.fr (throughput_collapse)\n" +
			"ps.slac.stanford.edu → psonar.physics.ox.ac.uk (throughput_collapse)",
		AnnEpisode: "incident-hop-198.18.50.1-1325746860000",
	} {
		if a.Annotations[k] != v {
			t.Errorf("annotation %s=%q, want %q", k, a.Annotations[k], v)
		}
	}
	if a.Annotations[AnnDashboard] != "http://grafana:3000/d/longhaul-mesh?from=now-24h&to=now" ||
		a.Annotations[AnnReport] != "longhaul report --since 24h -o report.html" || a.GeneratorURL != a.Annotations[AnnDashboard] {
		t.Errorf("an incident is no one link: the mesh overview and the whole report, which open with it: %v", a.Annotations)
	}
	if ev := a.Annotations[AnnEvidence]; strings.Contains(ev, "link_list") || !strings.Contains(ev, "links_degraded=4") {
		t.Errorf("evidence %q: the links are listed one a line, not again in it", ev)
	}
	m := members["ps.slac.stanford.edu|cclhcone01.in2p3.fr"]
	want := map[string]string{"alertname": "incident_member", "src": "ps.slac.stanford.edu", "dst": "cclhcone01.in2p3.fr",
		"incident": "incident-hop-198.18.50.1-1325746860000", "role": "member", "source": "longhaul"}
	if !reflect.DeepEqual(m.Labels, want) {
		t.Errorf("member labels %v, want %v", m.Labels, want)
	}
	if !m.StartsAt.Equal(time.UnixMilli(1325746860000)) || !m.EndsAt.Equal(t0.Add(24*time.Hour)) {
		t.Errorf("a member starts with the incident and ends a hold ahead: %v %v", m.StartsAt, m.EndsAt)
	}
}

func TestAnUpdateDroppingALinkResolvesThatMemberAndKeepsTheOthers(t *testing.T) {
	s := testState()
	s.Apply(incident(contract.KindIncidentOpened, 0, hop, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable"), link("s3", "d2", "high_loss")))
	ch := s.Apply(incident(contract.KindIncidentUpdated, 5*time.Minute, hop, link("s1", "d1", "unreachable"), link("s3", "d2", "high_loss"), link("s4", "d2", "throughput_collapse")))
	incidents, resolved := byName(ch.Resolved)
	if len(incidents) != 0 || !reflect.DeepEqual(keys(resolved), []string{"s2|d1"}) {
		t.Fatalf("resolved %d incident alerts and members %v, want the member of s2 → d1 only", len(incidents), keys(resolved))
	}
	if !resolved["s2|d1"].EndsAt.Equal(t0.Add(5 * time.Minute)) {
		t.Errorf("the member ends when its link left: %v", resolved["s2|d1"].EndsAt)
	}
	incidents, firing := byName(ch.Firing)
	if len(incidents) != 1 || incidents[0].Labels[LabelAlertname] != contract.KindIncidentOpened || !incidents[0].StartsAt.Equal(t0) {
		t.Fatalf("the update re-raises the incident_opened alert from its start: %+v", incidents)
	}
	if incidents[0].Annotations[AnnHeadline] != "Incident at hop 198.18.50.1 (AS 64512): 3 links" {
		t.Errorf("headline %q", incidents[0].Annotations[AnnHeadline])
	}
	if !reflect.DeepEqual(keys(firing), []string{"s1|d1", "s3|d2", "s4|d2"}) {
		t.Fatalf("members %v", keys(firing))
	}
	if !firing["s1|d1"].StartsAt.Equal(t0) || !firing["s4|d2"].StartsAt.Equal(t0.Add(5*time.Minute)) {
		t.Errorf("a member starts when its link joined: %v, %v", firing["s1|d1"].StartsAt, firing["s4|d2"].StartsAt)
	}
	if s.Has(resolved["s2|d1"].Labels) || !s.Has(firing["s4|d2"].Labels) {
		t.Error("the open set must hold the members of the links the incident explains now, only")
	}
}

func TestAResolvedIncidentResolvesItsAlertAndEveryMember(t *testing.T) {
	s := testState()
	opened := s.Apply(incident(contract.KindIncidentOpened, 0, hop, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable")))
	ch := s.Apply(incident(contract.KindIncidentResolved, time.Hour, hop, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable")))
	if len(ch.Resolved) != 3 {
		t.Fatalf("resolved %d, want the incident and its 2 members", len(ch.Resolved))
	}
	for i, a := range ch.Resolved {
		if a.Identity() != opened.Firing[i].Identity() || !a.EndsAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("resolved %v at %v, want %v", a.Labels, a.EndsAt, opened.Firing[i].Labels)
		}
	}
	if open := s.Open(); len(open) != 0 {
		t.Fatalf("still open: %+v", open)
	}
}

func TestMembersAreRepostedAndReconciledLikeEveryOpenAlert(t *testing.T) {
	s := testState()
	s.Apply(ev(contract.KindUnreachable, "s1", "d1", 0, "u-1"))
	s.Apply(incident(contract.KindIncidentOpened, time.Minute, hop, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable")))
	s.Now = func() time.Time { return t0.Add(time.Hour) }
	incidents, members := byName(s.Open())
	if len(incidents) != 2 || !reflect.DeepEqual(keys(members), []string{"s1|d1", "s2|d1"}) {
		t.Fatalf("open: %d alerts, members %v", len(incidents), keys(members))
	}
	for _, m := range members {
		if !m.EndsAt.Equal(t0.Add(25*time.Hour)) || !s.Has(m.Labels) {
			t.Errorf("a member is reposted a hold ahead and kept on reconcile: %v %v", m.Labels, m.EndsAt)
		}
	}
	if alerts, _ := s.Len(); alerts != 2 {
		t.Errorf("%d open alerts, want the link's and the incident (members are not counted)", alerts)
	}
}

func TestASiteIncidentListsItsOwnLinksAndIsAtItsSite(t *testing.T) {
	s := testState()
	s.Apply(ev(contract.KindUnreachable, "s9", "dst-a", 0, "")) // open towards the site, not in the incident
	e := incident(contract.KindIncidentOpened, time.Minute, Location{Type: "site", Name: "dst-a"}, link("s1", "dst-a", "unreachable"), link("s2", "dst-a", "high_loss", "unreachable"))
	e.Dst = "dst-a"
	a := s.Apply(e).Firing[0]
	if a.Labels[LabelSite] != "SITE-A" || a.Annotations[AnnLocation] != "site dst-a" {
		t.Errorf("labels %v", a.Labels)
	}
	if a.Annotations[AnnLinks] != "s1 → dst-a (unreachable)\ns2 → dst-a (high_loss, unreachable)" {
		t.Errorf("links %q", a.Annotations[AnnLinks])
	}
	if a.Annotations[AnnHeadline] != "Incident at site dst-a: 2 links" {
		t.Errorf("headline %q", a.Annotations[AnnHeadline])
	}
	// a per-link alert towards the site re-renders the incident, which keeps its own list
	for _, r := range s.Apply(ev(contract.KindUnreachable, "s8", "dst-a", 2*time.Minute, "")).Firing {
		if r.Labels[LabelAlertname] == contract.KindIncidentOpened && r.Annotations[AnnLinks] != a.Annotations[AnnLinks] {
			t.Errorf("links became %q", r.Annotations[AnnLinks])
		}
	}
}

func TestARelocatedIncidentStaysTheSameAlertWithItsNewLocation(t *testing.T) {
	s := testState()
	first := s.Apply(incident(contract.KindIncidentOpened, 0, hop, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable")))
	ch := s.Apply(incident(contract.KindIncidentUpdated, time.Minute, Location{Type: "site", Name: "d1"}, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable")))
	if len(ch.Resolved) != 0 {
		t.Fatalf("a relocation resolved %+v: it would be a second page", ch.Resolved)
	}
	incidents, members := byName(ch.Firing)
	if len(incidents) != 1 || incidents[0].Identity() != first.Firing[0].Identity() || len(members) != 2 {
		t.Fatalf("firing %+v", ch.Firing)
	}
	if incidents[0].Annotations[AnnLocation] != "site d1" || !incidents[0].StartsAt.Equal(first.Firing[0].StartsAt) {
		t.Errorf("relocated alert %+v", incidents[0])
	}
}

func TestAnIncidentWithoutALocationNameIsRefused(t *testing.T) {
	for _, b := range []string{
		`{"kind":"incident_opened","src":"*","dst":"*","ts":1,"location":{"type":"hop"}}`,
		`{"kind":"incident_opened","src":"*","dst":"*","ts":1,"location":{"type":"hop","name":"h"},"links":[{"src":"a"}]}`,
	} {
		if _, err := ParseEvent([]byte(b)); err == nil {
			t.Errorf("%s: accepted", b)
		}
	}
}

// As the job sends them: an incident at a site has that site as dst, one at a hop "*"; its
// severity follows its links (critical while one of them is). Neither a move nor a link
// recovering is a second page (the testbed story's hop incident re-paged when its collapsed link
// recovered first, lowering it to warning); a rise to critical is one, as a link alert's is.
func TestAnIncidentKeepsItsAlertWhenItMovesOrCalmsAndPagesWhenItEscalates(t *testing.T) {
	s := testState()
	site := Location{Type: "site", Name: "d1"}
	atSite := func(kind string, at time.Duration, sev string) Event {
		e := incident(kind, at, site, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable"))
		e.Dst, e.Severity = "d1", sev
		return e
	}
	first := s.Apply(atSite(contract.KindIncidentOpened, 0, "critical")).Firing[0]
	moved := incident(contract.KindIncidentUpdated, time.Minute, hop, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable"))
	moved.Severity = "warning"
	ch := s.Apply(moved)
	incidents, _ := byName(ch.Firing)
	if len(ch.Resolved) != 0 || len(incidents) != 1 || incidents[0].Identity() != first.Identity() {
		t.Fatalf("moved to a hop and calmed: resolved %+v, firing %+v", ch.Resolved, incidents)
	}
	if incidents[0].Labels[LabelDst] != "d1" || incidents[0].Labels[LabelSeverity] != "critical" {
		t.Errorf("labels %v: the ones it opened with", incidents[0].Labels)
	}

	s = testState()
	calm := s.Apply(atSite(contract.KindIncidentOpened, 0, "warning")).Firing[0]
	ch = s.Apply(atSite(contract.KindIncidentUpdated, time.Minute, "critical"))
	incidents, _ = byName(ch.Firing)
	if len(incidents) != 1 || incidents[0].Labels[LabelSeverity] != "critical" || len(ch.Resolved) != 1 || ch.Resolved[0].Identity() != calm.Identity() {
		t.Fatalf("escalated: resolved %+v, firing %+v", ch.Resolved, incidents)
	}
}
