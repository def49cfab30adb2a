package setup

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	"longhaul/ingest/contract"
)

// The principals of Longhaul's roles. Each gets the least it needs on the contract's topics
// (docs/security.md); `admin` is the brokers' super user and needs no ACL.
const (
	Admin    = "admin"    // topic creation, ACLs, credentials; the tests
	Flink    = "flink"    // the Flink job
	Telegraf = "telegraf" // the sink into InfluxDB
	Operator = "operator" // the operator CLI: reads results
	// AgentPrefix starts every agent's principal: agent-<site>.
	AgentPrefix = "agent-"
)

// JobPrefix starts the name of every Flink job of Longhaul: its consumer group and its
// transactional-id prefix are its name, and the flink principal may use only those.
const JobPrefix = "longhaul-"

// TelegrafGroupPrefix starts Telegraf's consumer groups (ingest/telegraf/telegraf.conf).
const TelegrafGroupPrefix = "longhaul-telegraf-"

// RawPrefix is the prefix every raw topic of the contract shares: agents write, and the job
// reads, the topics under it (one prefixed ACL, so a new raw topic needs no new ACL).
var RawPrefix = commonPrefix(contract.RawTopics)

// Services are the principals whose credentials `longhaul setup` makes from secret files.
var Services = []string{Admin, Flink, Telegraf, Operator}

var agentName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

// AgentPrincipal is the Kafka user of an agent named name (a site or host name).
func AgentPrincipal(name string) (string, error) {
	name = strings.TrimPrefix(strings.ToLower(name), AgentPrefix)
	if !agentName.MatchString(name) {
		return "", fmt.Errorf("agent name %q: want letters, digits, '.', '_' or '-' (at most 63)", name)
	}
	return AgentPrefix + name, nil
}

// ACLs are the rights of a principal's role; admin has none (super user).
func ACLs(principal string) []*kadm.ACLBuilder {
	user := "User:" + principal
	allow := func() *kadm.ACLBuilder { return kadm.NewACLs().Allow(user).AllowHosts("*") }
	lit, pre := kadm.ACLPatternLiteral, kadm.ACLPatternPrefixed
	switch {
	case principal == Flink:
		return []*kadm.ACLBuilder{
			allow().Topics(RawPrefix).ResourcePatternType(pre).Operations(kadm.OpRead, kadm.OpDescribe),
			allow().Topics(contract.TopicStats, contract.TopicEvents, contract.TopicDeadLetter).ResourcePatternType(lit).
				Operations(kadm.OpWrite, kadm.OpDescribe),
			allow().Groups(JobPrefix).ResourcePatternType(pre).Operations(kadm.OpRead),
			allow().TransactionalIDs(JobPrefix).ResourcePatternType(pre).Operations(kadm.OpWrite, kadm.OpDescribe),
		}
	case principal == Telegraf:
		return []*kadm.ACLBuilder{
			allow().Topics(contract.TopicStats, contract.TopicEvents, contract.TopicRawPath).ResourcePatternType(lit).
				Operations(kadm.OpRead, kadm.OpDescribe),
			allow().Groups(TelegrafGroupPrefix).ResourcePatternType(pre).Operations(kadm.OpRead),
		}
	case principal == Operator:
		return []*kadm.ACLBuilder{
			allow().Topics(contract.TopicStats, contract.TopicEvents).ResourcePatternType(lit).Operations(kadm.OpRead, kadm.OpDescribe),
		}
	case strings.HasPrefix(principal, AgentPrefix):
		return []*kadm.ACLBuilder{
			allow().Topics(RawPrefix).ResourcePatternType(pre).Operations(kadm.OpWrite, kadm.OpDescribe),
			allow().Topics(contract.TopicDeadLetter).ResourcePatternType(lit).Operations(kadm.OpWrite, kadm.OpDescribe),
		}
	}
	return nil
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
