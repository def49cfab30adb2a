package alerting

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSitesComeFromThePSConfigAddressesMeta(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "sites.yaml")
	if err := os.WriteFile(own, []byte("sites:\n  pinned.example: PINNED\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base, err := LoadSites(own)
	if err != nil {
		t.Fatal(err)
	}
	s, n, problems, err := LoadPSConfigSites(context.Background(), base, "testdata/psconfig-sites.json")
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]string{
		"ccperfsonar1.in2p3.example": "CNRS-IN2P3-CC",         // display-name, as a site name
		"lcgps02.gridpp.rl.example":  "RAL-LCG2",              // longhaul-site over display-name
		"ral-bw":                     "RAL-LCG2",              // the address's name in the template too
		"192.0.2.71":                 "SCinet-DNOC-Booth-571", // spaces and dashes: one '-'
		"no-meta.example":            "no-meta.example",       // no _meta: its own site
		"bad-site.example":           "bad-site.example",      // refused, said below
		"pinned.example":             "PINNED",                // the sites file wins
	} {
		if got := s.Of(host); got != want {
			t.Errorf("site of %s = %q, want %q", host, got, want)
		}
	}
	if n != 5 {
		t.Errorf("%d hosts named, want 5 (2 for ral-bw, scinet's address and name count once each)", n)
	}
	want := []string{`addresses.bad-site.example: _meta.longhaul-site not a site/name is not a site name (letters, digits, '.', '_', '-')`}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %q, want %q", problems, want)
	}
	if base.Of("ccperfsonar1.in2p3.example") != "ccperfsonar1.in2p3.example" {
		t.Error("the sites file's table was changed in place")
	}
}

func TestAnIncidentAtAPSConfigSiteGoesToItsTeam(t *testing.T) {
	s, _, _, err := LoadPSConfigSites(context.Background(), Sites{exact: map[string]string{}}, "testdata/psconfig-sites.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "contacts.yaml")
	if err := os.WriteFile(f, []byte("teams:\n  - name: in2p3-noc\n    email: noc@in2p3.example\n    sites: [CNRS-IN2P3-CC]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadContacts(f, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.TeamOf(Location{Type: "site", Name: "ccperfsonar1.in2p3.example"}, s); got != "in2p3-noc" {
		t.Errorf("team %q, want in2p3-noc", got)
	}
}

func TestAMissingPSConfigTemplateIsAnError(t *testing.T) {
	if _, _, _, err := LoadPSConfigSites(context.Background(), Sites{}, "testdata/none.json"); err == nil {
		t.Fatal("accepted")
	}
}
