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
