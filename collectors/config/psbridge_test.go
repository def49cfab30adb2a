package config

import (
	"strings"
	"testing"
)

const bridgeOnly = `src: bridge.example.org
kafka: {bootstrap: [127.0.0.1:9092], security: plaintext}
pscheduler_bridge:
  topic: longhaul.pscheduler.results
`

func TestEachIdentityNamesTheHostsItMayReportFor(t *testing.T) {
	c, err := Parse("bridge.yaml", []byte(bridgeOnly+"  hosts: {pscheduler-lyon: [perfsonar.in2p3.fr], http: [a.example.org], pscheduler: [b.example.org]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.PSBridge.Hosts) != 3 || c.PSBridge.Hosts["pscheduler-lyon"][0] != "perfsonar.in2p3.fr" {
		t.Fatalf("%v", c.PSBridge.Hosts)
	}
	for _, w := range c.Warnings() {
		if strings.Contains(w, "hosts") {
			t.Fatalf("warned with hosts set: %s", w)
		}
	}
	for bad, want := range map[string]string{
		"  hosts: {agent-lyon: [a]}\n":             `pscheduler_bridge.hosts.agent-lyon: "agent-lyon" is not an identity`,
		"  hosts: {pscheduler-lyon: []}\n":         "pscheduler_bridge.hosts.pscheduler-lyon: no host",
		"  hosts: {pscheduler-lyon: [\"-x y\"]}\n": `pscheduler_bridge.hosts.pscheduler-lyon[0]: "-x y" is not a valid host name`,
	} {
		if _, err := Parse("bridge.yaml", []byte(bridgeOnly+bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
	open, err := Parse("bridge.yaml", []byte(bridgeOnly))
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(open.Warnings(), "\n"); !strings.Contains(w, "pscheduler_bridge.hosts is unset: any pScheduler host may report results for any host") {
		t.Fatalf("no warning without host lists: %q", w)
	}
}
