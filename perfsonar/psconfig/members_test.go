package psconfig

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestAGroupsAddressesAreThoseItsTestsRunBetween(t *testing.T) {
	raw, err := os.ReadFile("testdata/wlcg/template.json")
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := Parse("testdata/wlcg/template.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	for group, want := range map[string][]string{
		// ps.retired.example is disabled: it runs nothing
		"wlcg-mesh": {"ccperfsonar1.in2p3.fr", "ps.noagent.example", "psonar1.cern.ch", "psonar1.fnal.gov"},
		"lhcone":    {"lhcone-ps.bnl.gov", "ps.noagent.example", "psonar1.cern.ch", "psonar2.cern.ch"},
	} {
		got, err := tpl.GroupAddresses(group)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v, %v; want %v", group, got, err, want)
		}
	}
	if _, err := tpl.GroupAddresses("lhcopn"); err == nil || !strings.Contains(err.Error(), "its groups: cern-v6, external, lhcone, wlcg-mesh") {
		t.Fatalf("an unknown group: %v", err)
	}
}
