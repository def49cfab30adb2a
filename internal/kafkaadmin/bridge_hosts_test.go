package kafkaadmin

import (
	"strings"
	"testing"
	"time"
)

func TestABridgesHostListIsSortedOnceAndHeldToItsSchema(t *testing.T) {
	now := time.UnixMilli(1764835200000)
	b, msg, err := NewBridgeHosts("psbridge-cern", []string{"ps2.cern.ch", "2001:1458::8", "ps2.cern.ch"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(b.Hosts, " ") != "2001:1458::8 ps2.cern.ch" || b.TS != now.UnixMilli() {
		t.Fatalf("%+v", b)
	}
	want := `{"schema":"bridge_hosts","version":1,"bridge":"psbridge-cern","hosts":["2001:1458::8","ps2.cern.ch"],"ts":1764835200000}`
	if string(msg) != want {
		t.Fatalf("%s\nwant %s", msg, want)
	}
	for _, bad := range [][]string{{"ps1 cern.ch"}, {"-ps1"}, {strings.Repeat("a", 254)}} {
		if _, _, err := NewBridgeHosts("psbridge-cern", bad, now); err == nil {
			t.Errorf("%q taken", bad)
		}
	}
	if _, _, err := NewBridgeHosts("agent-cern", []string{"ps1"}, now); err == nil {
		t.Error("an agent's user taken as a bridge")
	}
}

func TestTheListsAdmitABridgesListedSrcsAloneAndEveryOtherTopicsAny(t *testing.T) {
	l := NewBridgeLists()
	_, msg, _ := NewBridgeHosts("psbridge-cern", []string{"ps1.cern.ch"}, time.Now())
	if err := l.Apply([]byte("psbridge-cern"), msg); err != nil {
		t.Fatal(err)
	}
	own := "longhaul.raw.rtt.psbridge-cern"
	if !l.Admits(own, "ps1.cern.ch") || l.Admits(own, "ps1.ihep.ac.cn") || l.Admits("longhaul.raw.rtt.psbridge-x", "ps1.cern.ch") {
		t.Fatal("a bridge's topic admits what its list does not say")
	}
	if !l.Admits("longhaul.raw.rtt", "anyone") || !l.Admits("longhaul.raw.rtt.agent-a", "b") {
		t.Fatal("the lists judge a topic that is no bridge's (an agent's src is contract.ForeignSrc's)")
	}
	if err := l.Apply([]byte("psbridge-other"), msg); err == nil {
		t.Fatal("cern's list taken under another bridge's key")
	}
	if err := l.Apply([]byte("psbridge-cern"), nil); err != nil || l.Admits(own, "ps1.cern.ch") {
		t.Fatalf("the tombstone left the list: %v", err)
	}
}
