package config

import (
	"testing"
	"time"
)

// A config may take its whole plan from a pSConfig template: no targets or probes of its own.
func TestAPSConfigURLReplacesTargetsAndProbes(t *testing.T) {
	c, insts, err := loadAndBuild("testdata/good/psconfig-only.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := c.PSConfig
	if !p.Enabled() || p.URL != "https://psconfig.opensciencegrid.org/pub/auto/psonar1.cern.ch" ||
		p.Refresh.D() != time.Hour || p.Timeout.D() != 30*time.Second || p.CAFile != "/etc/longhaul/psconfig-ca.crt" ||
		len(p.MatchAddresses) != 1 || p.MatchAddresses[0] != "psonar1.cern.ch" {
		t.Errorf("psconfig: %+v", p)
	}
	if len(insts) != 0 || len(c.Targets) != 0 {
		t.Errorf("instances %d, targets %d", len(insts), len(c.Targets))
	}
}

func TestWithoutAPSConfigURLThereIsNoPSConfig(t *testing.T) {
	c, _, err := loadAndBuild("testdata/good/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.PSConfig.Enabled() {
		t.Errorf("psconfig enabled: %+v", c.PSConfig)
	}
}

func TestCheckNameAndProbeID(t *testing.T) {
	for _, ok := range []string{"ps1.example.org", "2001:db8::1", "fnal-ps1"} {
		if msg := CheckName(ok); msg != "" {
			t.Errorf("%q: %s", ok, msg)
		}
	}
	for _, bad := range []string{"", "-x", "a b", "a/b"} {
		if CheckName(bad) == "" {
			t.Errorf("%q accepted as a name", bad)
		}
	}
	if CheckProbeID("wlcg-throughput") != "" || CheckProbeID("a:b") == "" || CheckProbeID("") == "" {
		t.Error("probe ids")
	}
}
