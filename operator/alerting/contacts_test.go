package alerting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/contract"
)

func sampleContacts(t *testing.T) Contacts {
	t.Helper()
	c, err := parseContacts("contacts.sample.yaml", []byte(SampleContacts))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAnIncidentsTeamIsTheOwnerOfItsHostSiteHopOrAS(t *testing.T) {
	c := sampleContacts(t)
	sites, err := LoadSites("testdata/sites.yaml")
	if err != nil {
		t.Fatal(err)
	}
	asn := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		loc  Location
		want string
	}{
		{Location{Type: "site", Name: "CCLHCONE01.in2p3.fr"}, "in2p3-noc"},             // its host
		{Location{Type: "site", Name: "ccperfsonar.in2p3.fr"}, "in2p3-noc"},            // its site, IN2P3
		{Location{Type: "host", Name: "lallhcone02.lal.in2p3.fr"}, ""},                 // site LAL: nobody's
		{Location{Type: "hop", Name: "198.18.50.1"}, "carrier-64512"},                  // the hop
		{Location{Type: "hop", Name: "198.18.60.9", ASN: asn(64512)}, "carrier-64512"}, // its AS
		{Location{Type: "hop", Name: "198.18.60.9", ASN: asn(64513)}, ""},
		{Location{Type: "hop", Name: "198.18.60.9"}, ""},
	} {
		if got := c.TeamOf(tc.loc, sites); got != tc.want {
			t.Errorf("%s: team %q, want %q", tc.loc, got, tc.want)
		}
	}
	if len(c.Teams) != 2 || c.Teams[0].WebhookURLFile != "/etc/longhaul/secrets/in2p3-noc.webhook" || c.Teams[1].ASNs[0] != 64512 {
		t.Errorf("teams %+v", c.Teams)
	}
}

func TestAnIncidentAlertCarriesItsTeamAndItsMembersDoNot(t *testing.T) {
	s := testState()
	s.Teams = sampleContacts(t)
	ch := s.Apply(incident(contract.KindIncidentOpened, 0, hop, link("s1", "d1", "unreachable"), link("s2", "d1", "unreachable")))
	if ch.Firing[0].Labels[LabelTeam] != "carrier-64512" {
		t.Errorf("incident labels %v", ch.Firing[0].Labels)
	}
	for _, m := range ch.Firing[1:] {
		if _, ok := m.Labels[LabelTeam]; ok {
			t.Errorf("member labels %v", m.Labels)
		}
	}
	link := s.Apply(ev(contract.KindUnreachable, "s1", "d1", time.Minute, "")).Firing[0]
	if _, ok := link.Labels[LabelTeam]; ok {
		t.Errorf("a link alert has no location: %v", link.Labels)
	}
}

func TestEveryBadContactsEntryIsReportedWithFileLineAndField(t *testing.T) {
	_, err := LoadContacts("testdata/contacts-bad.yaml", false)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`testdata/contacts-bad.yaml:5: teams[1].name: "no team" is not a team name`,
		`testdata/contacts-bad.yaml:6: teams[1].email: "not-an-address" is not an email address`,
		`testdata/contacts-bad.yaml:7: teams[1].hops[0]: "198.18.50.256" is not a router address`,
		`testdata/contacts-bad.yaml:10: teams[2]: host a.example.org is already team good's`,
		`testdata/contacts-bad.yaml:11: teams[2].asns[1]: "-3" is not an AS number`,
		`testdata/contacts-bad.yaml:12: teams[2].phone: unknown field`,
		`testdata/contacts-bad.yaml:13: teams[3].name: required`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in:\n%v", want, err)
		}
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != 7 {
		t.Errorf("%d errors, want 7:\n%v", n, err)
	}
}

func TestContactsAreOptionalAtTheDefaultPathOnly(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "contacts.yaml")
	if c, err := LoadContacts(missing, true); err != nil || len(c.Teams) != 0 {
		t.Fatalf("the default path, absent: no teams (%v)", err)
	}
	if _, err := LoadContacts(missing, false); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("a path given must exist: %v", err)
	}
	os.WriteFile(missing, []byte("teams: {a: b}\n"), 0o644)
	if _, err := LoadContacts(missing, true); err == nil || !strings.Contains(err.Error(), missing+":1: teams: want a list") {
		t.Fatalf("error %v", err)
	}
}

func TestTheReadmeShowsTheSampleContactsAsTheyAre(t *testing.T) {
	b, err := os.ReadFile("../../alerting/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "```yaml\n"+SampleContacts+"```") {
		t.Fatal("alerting/README.md's contacts sample differs from operator/alerting/contacts.sample.yaml")
	}
}
