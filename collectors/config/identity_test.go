package config

import (
	"strings"
	"testing"

	"longhaul/ingest/contract"
)

func TestAnAgentUserPublishesItsOwnSrcOnItsOwnTopics(t *testing.T) {
	const agent = `src: cern-ps1
kafka: {bootstrap: [127.0.0.1:9092], sasl: {user: agent-cern-ps1, password_file: /dev/null}}
targets: [{name: bnl-ps1, address: 192.0.2.7}]
probes: [{id: plain, kind: test-kind, interval: 1h}]
`
	cfg, err := Parse("agent.yaml", []byte(agent))
	if err != nil {
		t.Fatal(err)
	}
	to := cfg.TopicOf()
	if to == nil || to(contract.TopicRawRTT) != contract.TopicRawRTT+".agent-cern-ps1" || to(contract.TopicDeadLetter) != contract.TopicDeadLetter+".agent-cern-ps1" {
		t.Fatal("an agent user's samples and dead letters must go to its own topics")
	}
	_, err = Parse("agent.yaml", []byte(strings.Replace(agent, "src: cern-ps1", "src: bnl-ps1", 1)))
	if err == nil || !strings.Contains(err.Error(), `agent.yaml:1: src: "bnl-ps1": Kafka user agent-cern-ps1 may publish samples of src "cern-ps1" only`) {
		t.Fatalf("another site's src: %v", err)
	}
	lab, err := Parse("agent.yaml", []byte(strings.Replace(agent, "sasl: {user: agent-cern-ps1, password_file: /dev/null}", "security: plaintext", 1)))
	if err != nil || lab.TopicOf() != nil {
		t.Fatalf("a plaintext lab writes the shared topics: %v", err)
	}
}
