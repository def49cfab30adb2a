package alerting

import (
	"strings"
	"testing"
)

func TestSitesMapHostsExactlyThenByLongestDomain(t *testing.T) {
	s, err := LoadSites("testdata/sites.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]string{
		"perfsonar.ihep.ac.cn": "IHEP", "PerfSONAR.IHEP.ac.cn": "IHEP",
		"cclhcone01.in2p3.fr": "IN2P3", "lallhcone02.lal.in2p3.fr": "LAL",
		"ps.fnal.gov": "ps.fnal.gov", "*": "*",
	} {
		if got := s.Of(host); got != want {
			t.Errorf("%s: site %s, want %s", host, got, want)
		}
	}
	empty, err := LoadSites("")
	if err != nil || empty.Of("dst-a") != "dst-a" {
		t.Fatalf("no file: every host is its own site (%v)", err)
	}
}

func TestABadSiteEntryNamesFileLineAndEntry(t *testing.T) {
	_, err := LoadSites("testdata/sites-bad.yaml")
	if err == nil || !strings.Contains(err.Error(), "testdata/sites-bad.yaml:3: sites.bad.example.org") {
		t.Fatalf("error %v", err)
	}
	if _, err := LoadSites("testdata/missing.yaml"); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Fatalf("error %v", err)
	}
}
