package config

import (
	"strings"

	"longhaul/internal/kafkaconn"
	"longhaul/probes/probe"

	"longhaul/ingest/contract"
)

// ProbeRequests is how the agent takes the Flink job's probe requests (topic
// longhaul.probe-requests, schema probe_request.v1): an extra run of one of its throughput
// probes now, to confirm or clear a suspect link. Defaults are in defaults.go.
type ProbeRequests struct {
	// Enabled: true takes requests; false ignores the topic (requests for this host then expire
	// unanswered, which the job reports). Unset: true when the agent can run what a request asks
	// for (a throughput probe of its own, or a pSConfig plan, which may hold throughput tasks);
	// a bridge-only agent (pScheduler's results, no probes) runs no consumer of requests.
	Enabled *bool `yaml:"enabled"`
	// MaxPerHour bounds the extra runs this host starts in any hour, whatever asks: the job's
	// budgets come first, this one is the host's own.
	MaxPerHour int `yaml:"max_per_hour"`
	// Group is the Kafka consumer group: an agent with a Kafka user has exactly one, its own
	// (OwnGroup: longhaul-agent-<name> for user agent-<name>, the only group its ACL allows);
	// without one (plaintext, a lab), AgentGroupPrefix + src by default.
	Group string `yaml:"group"`
}

// On says whether the agent takes requests.
func (p ProbeRequests) On() bool { return p.Enabled == nil || *p.Enabled }

// The agents' Kafka user and group names are the contract's (ingest/contract/identities.go).
const (
	AgentGroupPrefix = contract.AgentGroupPrefix
	AgentUserPrefix  = contract.AgentUserPrefix
)

// OwnGroup is the one consumer group the Kafka user of an agent may use (contract.OwnGroup):
// operator's setup grants it.
func OwnGroup(user string) string { return contract.OwnGroup(user) }

// ownGroupOf is the group an agent logging in as k's user must use, or "" when it logs in as no
// agent user (plaintext, a certificate, another role).
func ownGroupOf(k Kafka) string {
	if k.Security != kafkaconn.SASLSSL || !strings.HasPrefix(k.SASL.User, AgentUserPrefix) {
		return ""
	}
	return OwnGroup(k.SASL.User)
}

// DefaultRequestsPerHour is max_per_hour's default: with a 4-hour cadence, six extra runs an
// hour still leave most of the host's exclusive time to its schedule.
const DefaultRequestsPerHour = 6

func applyRequestsDefaults(p *ProbeRequests, c *Config) {
	if p.Enabled == nil {
		on := c.PSConfig.Enabled()
		for _, pr := range c.Probes {
			on = on || pr.Kind == probe.KindThroughput
		}
		p.Enabled = &on
	}
	src := c.Src
	if p.MaxPerHour == 0 {
		p.MaxPerHour = DefaultRequestsPerHour
	}
	if p.Group == "" {
		p.Group = AgentGroupPrefix + src
		if own := ownGroupOf(c.Kafka); own != "" {
			p.Group = own
		}
	}
}

func validateRequests(l *errorList, p *ProbeRequests, k Kafka) {
	if p.MaxPerHour < 1 || p.MaxPerHour > 1000 {
		l.at("probe_requests.max_per_hour", "must be between 1 and 1000 (enabled: false takes none), got %d", p.MaxPerHour)
	}
	if own := ownGroupOf(k); own != "" && p.Group != own {
		l.at("probe_requests.group", "%q: the Kafka user %s may use only its own group %s (leave it unset)", p.Group, k.SASL.User, own)
	} else if !strings.HasPrefix(p.Group, AgentGroupPrefix) {
		l.at("probe_requests.group", "%q must start with %s", p.Group, AgentGroupPrefix)
	}
}
