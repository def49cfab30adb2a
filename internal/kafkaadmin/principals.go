package kafkaadmin

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	"longhaul/ingest/contract"
)

// The principals of Longhaul's roles. Each gets the least it needs on the contract's topics
// (docs/security.md); `admin` is the brokers' super user and needs no ACL.
const (
	// Admin is the administrator: as the certificate CN=admin,O=Longhaul (a super user, on the
	// admin listener: topics, ACLs, credentials); as a SCRAM user only on a test stack, whose
	// brokers make it a super user for the tests' own clients (LONGHAUL_KAFKA_TEST_SUPER_USER).
	Admin    = "admin"
	Flink    = "flink"    // the Flink job
	Telegraf = "telegraf" // the sink into InfluxDB
	Operator = "operator" // the operator CLI: reads results
	Watchdog = "watchdog" // operator/watchdog: watches the pipeline, raises pipeline_degraded
	Alerter  = "alerter"  // operator/alerting: the alert bridge, reads events into Alertmanager
	// PSBridge is the agent as pScheduler bridge (perfsonar/psbridge): reads the archivers'
	// topic, writes samples like an agent.
	PSBridge = "psbridge"
	// Importer is `longhaul import`: writes backfilled samples, to the history topics only.
	Importer = "importer"
	// PScheduler is pScheduler's Kafka archiver: it speaks PLAINTEXT or SSL only, no SASL, so
	// it authenticates by certificate (CN=pscheduler) on the brokers' archiver listener and
	// may only write the archivers' topic.
	PScheduler = "pscheduler"
	// AgentPrefix starts every agent's principal: agent-<site>.
	AgentPrefix = contract.AgentUserPrefix
	// PSchedulerHostPrefix starts the principal of one pScheduler host's Kafka archiver
	// (`longhaul admin add-pscheduler-host NAME`: a certificate CN=pscheduler-NAME): it writes its
	// own archivers' topic (contract.ArchiverTopic), revoked alone.
	PSchedulerHostPrefix = contract.OwnTopicArchiverPrefix
	// BridgePrefix starts the Kafka user of a pScheduler bridge of its own (`longhaul admin
	// add-bridge NAME`: psbridge-NAME): it writes its own raw topics, and the job takes from them
	// the srcs of its central host list only (topic bridge.hosts).
	BridgePrefix = contract.OwnTopicBridgePrefix
)

// JobPrefix starts the name of every Flink job of Longhaul: its consumer group and its
// transactional-id prefix are its name, and the flink principal may use only those.
const JobPrefix = "longhaul-"

// TelegrafGroupPrefix starts Telegraf's consumer groups (ingest/telegraf/telegraf.conf).
const TelegrafGroupPrefix = "longhaul-telegraf-"

// RawPrefix is the prefix every raw topic of the contract shares: agents write, and the job
// reads, the topics under it (one prefixed ACL, so a new raw topic needs no new ACL).
var RawPrefix = commonPrefix(contract.RawTopics)

// HistoryPrefix is the prefix of the history topics: the importer's alone, so that a sample on them
// is history because of who wrote it (no agent can mark its samples as history).
var HistoryPrefix = commonPrefix(contract.HistoryTopics)

// Services are the principals whose credentials `longhaul setup` makes from secret files.
var Services = []string{Flink, Telegraf, Operator}

// OptionalServices are made like Services when their secret file exists, and skipped (said so)
// when it does not: a deployment that runs no watchdog needs no credential for it.
// Admin's SCRAM user exists on test stacks only (kafka-admin.password), where the brokers make it
// a super user; elsewhere no password is a super user's.
var OptionalServices = []string{Watchdog, Alerter, PSBridge, Importer, Admin}

// CertPrincipals authenticate by certificate, not SCRAM: `longhaul setup` grants their ACLs only.
var CertPrincipals = []string{PScheduler}

var agentName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

// AgentPrincipal is the Kafka user of an agent named name (a site or host name).
func AgentPrincipal(name string) (string, error) {
	return prefixed(AgentPrefix, "agent", name)
}

// BridgePrincipal is the Kafka user of the pScheduler bridge named name (a site's, or a central
// fleet's).
func BridgePrincipal(name string) (string, error) {
	return prefixed(BridgePrefix, "bridge", name)
}

// PSchedulerHostPrincipal is the principal of the pScheduler host named name: its certificate's CN.
func PSchedulerHostPrincipal(name string) (string, error) {
	return prefixed(PSchedulerHostPrefix, "pScheduler host", name)
}

func prefixed(prefix, what, name string) (string, error) {
	name = strings.TrimPrefix(strings.ToLower(name), prefix)
	if !agentName.MatchString(name) {
		return "", fmt.Errorf("%s name %q: want letters, digits, '.', '_' or '-' (at most 63)", what, name)
	}
	return prefix + name, nil
}

// Resource kinds a Grant names.
const (
	TopicResource = "topic"
	GroupResource = "group"
	TxnResource   = "transactional-id"
)

// Grant is one right of a role: operations on resources of a kind, named literally or by prefix;
// or, Deny, a carve-out of a wider grant (Kafka's DENY wins over any ALLOW). ACLs builds Kafka's
// ACLs from them; tests read them.
type Grant struct {
	Resource string   // TopicResource, GroupResource or TxnResource
	Names    []string // the resources' names, or one prefix
	Prefixed bool
	Ops      []kadm.ACLOperation
	Deny     bool
}

// otherServicesGroups are the consumer group prefixes of services whose names also start with
// JobPrefix: the flink principal may use the jobs' groups, not theirs (a leaked flink password
// must not commit Telegraf's offsets past unwritten data, or take an agent's probe requests).
var otherServicesGroups = []string{TelegrafGroupPrefix, contract.AgentGroupPrefix, contract.PSBridgeGroupPrefix}

// Grants are the rights of a principal's role; admin has none (super user).
func Grants(principal string) []Grant {
	topics := func(prefixed bool, ops []kadm.ACLOperation, names ...string) Grant {
		return Grant{Resource: TopicResource, Names: names, Prefixed: prefixed, Ops: ops}
	}
	read := []kadm.ACLOperation{kadm.OpRead, kadm.OpDescribe}
	write := []kadm.ACLOperation{kadm.OpWrite, kadm.OpDescribe}
	switch {
	case principal == Flink:
		return []Grant{
			topics(true, read, RawPrefix),
			topics(false, read, contract.TopicHistoryThroughput),
			topics(false, write, contract.TopicStats, contract.TopicEvents, contract.TopicProbeRequests, contract.TopicPaths),
			// the shared dead letters and each identity's own (contract.DeadLetterTopicOf)
			topics(true, write, contract.TopicDeadLetter),
			// the hosts each bridge identity may report for, read by partition (no group)
			topics(false, read, contract.TopicBridgeHosts),
			{Resource: GroupResource, Names: []string{JobPrefix}, Prefixed: true, Ops: []kadm.ACLOperation{kadm.OpRead}},
			{Resource: GroupResource, Names: otherServicesGroups, Prefixed: true, Ops: []kadm.ACLOperation{kadm.OpRead}, Deny: true},
			{Resource: TxnResource, Names: []string{JobPrefix}, Prefixed: true, Ops: write},
		}
	case principal == Telegraf:
		return []Grant{
			// the traces the job validated, and the importer's: never a raw topic an agent writes
			topics(false, read, contract.TopicStats, contract.TopicEvents, contract.TopicPaths, contract.TopicHistoryPath),
			{Resource: GroupResource, Names: []string{TelegrafGroupPrefix}, Prefixed: true, Ops: []kadm.ACLOperation{kadm.OpRead}},
		}
	case principal == Watchdog:
		// Reads the raw topics (agents' last-seen and clock skew), the history topics (the lag of
		// the groups that read them), stats (the newest statistic, to compare with InfluxDB's) and
		// events (its own, on restart); writes events only. Describes
		// the groups of the jobs and of Telegraf (both prefixed longhaul-): their committed offsets,
		// for lag. It cannot join or commit to them (no READ on groups), and has no group of its
		// own: it consumes by partition.
		return []Grant{
			topics(true, read, RawPrefix),
			topics(true, read, HistoryPrefix),
			topics(false, read, contract.TopicStats),
			// the bridges' host lists: a bridge's sample of a host outside its list is no life
			topics(false, read, contract.TopicBridgeHosts),
			// the end offsets of the validated traces, for the lag of Telegraf's path group
			topics(false, []kadm.ACLOperation{kadm.OpDescribe}, contract.TopicPaths),
			topics(false, []kadm.ACLOperation{kadm.OpRead, kadm.OpWrite, kadm.OpDescribe}, contract.TopicEvents),
			{Resource: GroupResource, Names: []string{JobPrefix}, Prefixed: true, Ops: []kadm.ACLOperation{kadm.OpDescribe}},
		}
	case principal == Alerter:
		// Reads the events topic only, by partition (no group: it rebuilds its open alerts from
		// the topic on every start, so it has no offsets to commit).
		return []Grant{topics(false, read, contract.TopicEvents)}
	case principal == PSBridge, contract.IsBridge(principal):
		// The shared bridge user writes the shared raw topics, literally (not an agent's own); a
		// bridge of its own writes its own raw topics only (contract.OwnTopics), whose srcs the job
		// holds to its central host list.
		raw := contract.RawTopics
		if principal != PSBridge {
			raw = contract.OwnTopics(principal)
		}
		return []Grant{
			topics(false, write, raw...),
			topics(false, write, contract.OwnTopic(contract.TopicDeadLetter, principal)),
			// the archivers' topic and every pScheduler host's own (contract.ArchiverTopic)
			topics(true, read, contract.TopicPschedulerResults),
			{Resource: GroupResource, Names: []string{contract.PSBridgeGroupPrefix}, Prefixed: true, Ops: []kadm.ACLOperation{kadm.OpRead}},
			// the keys every bridge of the fleet converted: each writes its own and follows all
			topics(false, []kadm.ACLOperation{kadm.OpRead, kadm.OpWrite, kadm.OpDescribe}, contract.TopicPsbridgeSeen),
		}
	case principal == PScheduler, strings.HasPrefix(principal, PSchedulerHostPrefix):
		// the shared archivers' topic for the one certificate every host shared; a host's own
		// topic for a host's certificate, where the bridge knows which hosts it may report for
		return []Grant{topics(false, write, contract.ArchiverTopic(principal))}
	case principal == Operator:
		return []Grant{topics(false, read, contract.TopicStats, contract.TopicEvents)}
	case strings.HasPrefix(principal, AgentPrefix):
		// Writes its own raw topics only (contract.OwnTopics: the topic proves the writer, and
		// the job takes from them only samples of the agent's own src), and its own dead letters
		// (bounded alone: its flood evicts no one else's). Reads the job's probe
		// requests, in its own group (literally: contract.OwnGroup): the topic is every agent's, so
		// an agent sees which links are suspect (it cannot write a request, nor join another
		// agent's group and take its requests).
		return []Grant{
			topics(false, write, contract.OwnTopics(principal)...),
			topics(false, write, contract.OwnTopic(contract.TopicDeadLetter, principal)),
			topics(false, read, contract.TopicProbeRequests),
			{Resource: GroupResource, Names: []string{contract.OwnGroup(principal)}, Ops: []kadm.ACLOperation{kadm.OpRead}},
		}
	case principal == Importer:
		return []Grant{
			topics(true, write, HistoryPrefix),
			topics(false, write, contract.TopicDeadLetter),
		}
	}
	return nil
}

// pattern is how Kafka matches the grant's names: by prefix or literally.
func (g Grant) pattern() kadm.ACLPattern {
	if g.Prefixed {
		return kadm.ACLPatternPrefixed
	}
	return kadm.ACLPatternLiteral
}

// ACLs are Kafka's ACLs for a principal's Grants.
func ACLs(principal string) []*kadm.ACLBuilder {
	var out []*kadm.ACLBuilder
	for _, g := range Grants(principal) {
		b := kadm.NewACLs().Allow("User:" + principal).AllowHosts("*").Operations(g.Ops...)
		if g.Deny {
			b = kadm.NewACLs().Deny("User:" + principal).DenyHosts("*").Operations(g.Ops...)
		}
		switch g.Resource {
		case TopicResource:
			b.Topics(g.Names...)
		case GroupResource:
			b.Groups(g.Names...)
		case TxnResource:
			b.TransactionalIDs(g.Names...)
		}
		b.ResourcePatternType(g.pattern())
		out = append(out, b)
	}
	return out
}

// Allows says whether the grants give op on the resource named name (literally or by prefix), as
// Kafka judges: an allowing grant matches and no denying one does.
func Allows(grants []Grant, resource, name string, op kadm.ACLOperation) bool {
	allowed := false
	for _, g := range grants {
		if g.Resource != resource || !slices.Contains(g.Ops, op) {
			continue
		}
		for _, n := range g.Names {
			if n == name || (g.Prefixed && strings.HasPrefix(name, n)) {
				if g.Deny {
					return false
				}
				allowed = true
			}
		}
	}
	return allowed
}

func commonPrefix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}
