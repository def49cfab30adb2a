package config

import (
	"strings"
	"testing"
)

// (An agent with a throughput probe takes them: tests/integration/test_confirmation.py runs one.)
func TestOnlyAnAgentThatCanRunWhatARequestAsksForTakesRequests(t *testing.T) {
	const bridgeOnly = `src: psbridge-1
kafka: {bootstrap: [127.0.0.1:9092], sasl: {user: psbridge, password_file: /dev/null}}
pscheduler_bridge: {listen: "127.0.0.1:0", token_file: /dev/null}
`
	for name, c := range map[string]struct {
		yaml string
		on   bool
	}{
		"a bridge-only agent":            {bridgeOnly, false},
		"a bridge-only agent told to":    {bridgeOnly + "probe_requests: {enabled: true}\n", true},
		"an agent planned from pSConfig": {bridgeOnly + "psconfig: {url: https://psconfig.example.org/pub/auto/x}\n", true},
		"a pSConfig agent told not to":   {bridgeOnly + "psconfig: {url: https://psconfig.example.org/pub/auto/x}\nprobe_requests: {enabled: false}\n", false},
	} {
		cfg, err := Parse("agent.yaml", []byte(c.yaml))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cfg.ProbeRequests.On() != c.on {
			t.Errorf("%s: takes requests %v, want %v", name, cfg.ProbeRequests.On(), c.on)
		}
	}
}

func TestAnAgentUserTakesRequestsInItsOwnGroupOnly(t *testing.T) {
	const agent = `src: perfsonar.ihep.ac.cn
kafka: {bootstrap: [127.0.0.1:9092], sasl: {user: agent-perfsonar.ihep.ac.cn, password_file: /dev/null}}
psconfig: {url: https://psconfig.example.org/pub/auto/perfsonar.ihep.ac.cn}
`
	cfg, err := Parse("agent.yaml", []byte(agent))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ProbeRequests.Group != "longhaul-agent-perfsonar.ihep.ac.cn" {
		t.Fatalf("group %q", cfg.ProbeRequests.Group)
	}
	_, err = Parse("agent.yaml", []byte(agent+"probe_requests: {group: longhaul-agent-cern}\n"))
	if err == nil || !strings.Contains(err.Error(), "probe_requests.group") || !strings.Contains(err.Error(), "may use only its own group longhaul-agent-perfsonar.ihep.ac.cn") {
		t.Fatalf("another agent's group: %v", err)
	}
	lab := strings.Replace(agent, "sasl: {user: agent-perfsonar.ihep.ac.cn, password_file: /dev/null}", "security: plaintext", 1)
	cfg, err = Parse("agent.yaml", []byte(lab))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ProbeRequests.Group != "longhaul-agent-perfsonar.ihep.ac.cn" {
		t.Fatalf("without a Kafka user: group %q", cfg.ProbeRequests.Group)
	}
}
