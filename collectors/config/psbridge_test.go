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
	c, err := Parse("bridge.yaml", []byte(bridgeOnly+"  hosts: {pscheduler-lyon: [perfsonar.in2p3.fr], http: [a.example.org], pscheduler: [b.example.org], http-lyon: [perfsonar.in2p3.fr]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.PSBridge.Hosts) != 4 || c.PSBridge.Hosts["pscheduler-lyon"][0] != "perfsonar.in2p3.fr" {
		t.Fatalf("%v", c.PSBridge.Hosts)
	}
	for _, w := range c.Warnings() {
		if strings.Contains(w, "hosts") {
			t.Fatalf("warned with hosts set: %s", w)
		}
	}
	for bad, want := range map[string]string{
		"  hosts: {agent-lyon: [a]}\n":             `pscheduler_bridge.hosts.agent-lyon: "agent-lyon" is not an identity`,
		"  hosts: {http-Lyon: [a]}\n":              `pscheduler_bridge.hosts.http-Lyon: "http-Lyon" is not an identity`,
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

// The HTTP endpoint needs a token: the one every host shares, a folder of the hosts' own, or both.
func TestTheHTTPEndpointTakesASharedTokenOrAFolderOfTheHostsOwn(t *testing.T) {
	const listen = "src: bridge.example.org\nkafka: {bootstrap: [127.0.0.1:9092], security: plaintext}\n" +
		"pscheduler_bridge:\n  listen: 127.0.0.1:9196\n"
	for _, ok := range []string{"  token_file: /t\n", "  host_tokens_dir: /d\n", "  token_file: /t\n  host_tokens_dir: /d\n"} {
		if _, err := Parse("bridge.yaml", []byte(listen+ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if _, err := Parse("bridge.yaml", []byte(listen)); err == nil || !strings.Contains(err.Error(), "pscheduler_bridge.token_file: required with listen, or host_tokens_dir") {
		t.Errorf("no token: %v", err)
	}
	noListen := "src: bridge.example.org\nkafka: {bootstrap: [127.0.0.1:9092], security: plaintext}\n" +
		"pscheduler_bridge:\n  topic: longhaul.pscheduler.results\n  host_tokens_dir: /d\n"
	if _, err := Parse("bridge.yaml", []byte(noListen)); err == nil || !strings.Contains(err.Error(), "pscheduler_bridge.listen: required") {
		t.Errorf("tokens without an endpoint: %v", err)
	}
}
