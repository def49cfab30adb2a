package config

import (
	"longhaul/ingest/contract"
	"longhaul/internal/kafkaconn"
)

// Principal is the Kafka user the agent logs in as (SASL), or "" (plaintext, a certificate).
func (c *Config) Principal() string {
	if c.Kafka.Security != kafkaconn.SASLSSL {
		return ""
	}
	return c.Kafka.SASL.User
}

// TopicOf maps the topic a sample is spooled under (the contract's) to the one it is sent to: an
// agent's user writes its own raw and dead-letter topics (contract.OwnTopic). The spool keeps the contract's
// names, so what was spooled before an upgrade goes to the agent's own topics after it. Nil when
// the agent writes the shared topics.
func (c *Config) TopicOf() func(topic string) string {
	principal := c.Principal()
	if !contract.OwnsTopics(principal) {
		return nil
	}
	return func(topic string) string { return contract.OwnTopic(topic, principal) }
}

// validateOwnSrc: an agent's user reports for one src, its name (agent-NAME, src NAME); the job
// dead-letters any other src on its topics. (A bridge's user, psbridge-NAME, reports for the hosts
// of its central list, which the job holds.)
func validateOwnSrc(l *errorList, c *Config) {
	p := c.Principal()
	if contract.IsAgent(p) && c.Src != "" && c.Src != contract.OwnSrc(p) {
		l.at("src", "%q: Kafka user %s may publish samples of src %q only (the job drops any other); "+
			"set src: %s, or use the user `longhaul admin add-agent %s` makes", c.Src, p, contract.OwnSrc(p), contract.OwnSrc(p), c.Src)
	}
}
