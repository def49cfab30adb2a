package contract

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
