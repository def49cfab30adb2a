package contract

import "regexp"

// The names of Longhaul's identities that the agent, the bridge and the operator's setup must
// agree on: Kafka users and consumer groups. (The topics' are generated from contract.yaml; an
// agent's user prefix is own_topics.principal_prefix there.)
const (
	// AgentUserPrefix starts the Kafka user of every agent: agent-<name> (`longhaul admin
	// add-agent`), whose own topics it alone writes.
	AgentUserPrefix = OwnTopicPrincipalPrefix
	// GroupPrefix starts every consumer group a Longhaul identity uses.
	GroupPrefix = "longhaul-"
	// AgentGroupPrefix starts the consumer groups of agents: GroupPrefix + AgentUserPrefix.
	AgentGroupPrefix = GroupPrefix + AgentUserPrefix
	// PSBridgeGroupPrefix starts the consumer groups of pScheduler bridges (the psbridge user may
	// use only those).
	PSBridgeGroupPrefix = GroupPrefix + "psbridge"
)

// OwnGroup is the one consumer group the Kafka user of an agent may use: GroupPrefix + user
// (longhaul-agent-<name> for agent-<name>), literally: no agent can join another's group and take
// its probe requests.
func OwnGroup(user string) string { return GroupPrefix + user }

// Identities of what delivers a result to the bridge: a pScheduler host's own Kafka topic names
// its certificate (contract.ArchiverOf: pscheduler-NAME); the shared topic is the one certificate
// every host used to share (SharedArchiver); on the HTTP endpoint, the token every host shares
// (HTTPArchiver) or a host's own (HTTPHostPrefix + NAME, host_tokens_dir's NAME.token).
const (
	SharedArchiver = "pscheduler"
	HTTPArchiver   = "http"
	HTTPHostPrefix = "http-"
)

// hostName is what a pScheduler host's name may be, after its identity's prefix.
const hostName = `[a-z0-9][a-z0-9._-]{0,62}`

// archiverName is a pScheduler host's certificate's principal; httpHostName a host's token's.
var (
	archiverName = regexp.MustCompile("^" + regexp.QuoteMeta(OwnTopicArchiverPrefix) + hostName + "$")
	httpHostName = regexp.MustCompile("^" + regexp.QuoteMeta(HTTPHostPrefix) + hostName + "$")
)

// IsHTTPHost says whether identity is a host's own token's (http-NAME).
func IsHTTPHost(identity string) bool { return httpHostName.MatchString(identity) }

// IsBridgeIdentity says whether who is one of these identities: what a bridge's host list may
// name.
func IsBridgeIdentity(who string) bool {
	return who == HTTPArchiver || who == SharedArchiver || archiverName.MatchString(who) || IsHTTPHost(who)
}
