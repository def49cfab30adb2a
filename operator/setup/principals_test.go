package setup

import (
	"strings"
	"testing"

	"longhaul/ingest/contract"
)

func TestRawTopicsShareThePrefixTheirACLsName(t *testing.T) {
	if RawPrefix == "" {
		t.Fatal("the raw topics share no prefix: a prefixed ACL would grant every topic")
	}
	for _, topic := range contract.RawTopics {
		if !strings.HasPrefix(topic, RawPrefix) {
			t.Errorf("%s does not start with %s", topic, RawPrefix)
		}
	}
	for _, result := range []string{contract.TopicStats, contract.TopicEvents, contract.TopicDeadLetter} {
		if strings.HasPrefix(result, RawPrefix) {
			t.Errorf("result topic %s falls under the raw prefix %s: agents could write it", result, RawPrefix)
		}
	}
}

func TestEveryRoleButAdminHasRightsAndAdminNone(t *testing.T) {
	if len(ACLs(Admin)) != 0 {
		t.Fatal("admin is a super user: ACLs for it would suggest it needs them")
	}
	agent, err := AgentPrincipal("CERN-ps1")
	if err != nil || agent != "agent-cern-ps1" {
		t.Fatalf("%q %v", agent, err)
	}
	for _, p := range []string{Flink, Telegraf, Operator, agent} {
		if len(ACLs(p)) == 0 {
			t.Errorf("%s has no ACLs", p)
		}
		for _, b := range ACLs(p) {
			if err := b.ValidateCreate(); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
	}
	if len(ACLs("someone-else")) != 0 {
		t.Fatal("an unknown principal got rights")
	}
}

func TestAgentNamesAreChecked(t *testing.T) {
	for _, bad := range []string{"", "a b", "../x", strings.Repeat("a", 64), "-x"} {
		if _, err := AgentPrincipal(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
