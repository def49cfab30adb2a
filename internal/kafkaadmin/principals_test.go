package kafkaadmin

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"

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

// Only the importer writes history: no prefix another role writes covers a history topic, and the
// history prefix covers nothing else.
func TestHistoryTopicsAreTheImportersAlone(t *testing.T) {
	if HistoryPrefix == "" || strings.HasPrefix(HistoryPrefix, RawPrefix) || strings.HasPrefix(RawPrefix, HistoryPrefix) {
		t.Fatalf("history prefix %q, raw prefix %q: each must cover only its own topics", HistoryPrefix, RawPrefix)
	}
	for _, topic := range contract.HistoryTopics {
		if !strings.HasPrefix(topic, HistoryPrefix) {
			t.Errorf("%s does not start with %s", topic, HistoryPrefix)
		}
	}
	for _, topic := range contract.Topics {
		if strings.HasPrefix(topic, HistoryPrefix) != slices.Contains(contract.HistoryTopics, topic) {
			t.Errorf("%s and the history prefix %s", topic, HistoryPrefix)
		}
	}
	agent, _ := AgentPrincipal("a")
	for _, p := range []string{agent, PSBridge, PScheduler, Flink, Telegraf, Watchdog, Alerter, Operator, Importer} {
		for _, topic := range contract.HistoryTopics {
			writes := slices.ContainsFunc(Grants(p), func(g Grant) bool {
				return g.Resource == TopicResource && !g.Deny && slices.Contains(g.Ops, kadm.OpWrite) &&
					slices.ContainsFunc(g.Names, func(n string) bool { return n == topic || g.Prefixed && strings.HasPrefix(topic, n) })
			})
			if writes != (p == Importer) {
				t.Errorf("%s writes %s: %v", p, topic, writes)
			}
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
	for _, p := range []string{Flink, Telegraf, Operator, Watchdog, Alerter, agent} {
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

// Who may write what: results only by the job (and the watchdog's own events); an agent's raw
// samples only by that agent, on its own topics (its dead letters too); the shared raw topics only
// by the bridge. A role
// given more by mistake fails here.
func TestOnlyTheRolesThatProduceATopicMayWriteIt(t *testing.T) {
	agent, _ := AgentPrincipal("site")
	other, _ := AgentPrincipal("other")
	bridge, _ := BridgePrincipal("cern")
	writers := map[string][]string{
		contract.TopicStats:       {Flink},
		contract.TopicEvents:      {Flink, Watchdog},
		contract.TopicDeadLetter:  {Flink, PSBridge, Importer},
		contract.TopicBridgeHosts: {}, // the admin's alone (super user)
		// an identity's own dead letters: its own, and the job's verdicts on its samples
		contract.OwnTopic(contract.TopicDeadLetter, agent):  {Flink, agent},
		contract.OwnTopic(contract.TopicDeadLetter, other):  {Flink, other},
		contract.OwnTopic(contract.TopicDeadLetter, bridge): {Flink, bridge},
	}
	for _, raw := range contract.RawTopics {
		writers[raw] = []string{PSBridge}
		writers[contract.OwnTopic(raw, agent)] = []string{agent}
		writers[contract.OwnTopic(raw, other)] = []string{other}
		writers[contract.OwnTopic(raw, bridge)] = []string{bridge}
	}
	for topic, want := range writers {
		for _, p := range []string{Flink, Telegraf, Operator, Watchdog, Alerter, PSBridge, Importer, agent, other, bridge} {
			allowed := Allows(Grants(p), TopicResource, topic, kadm.OpWrite)
			if allowed != contains(want, p) {
				t.Errorf("%s writes %s: %v, want %v", p, topic, allowed, !allowed)
			}
		}
	}
}

// The watchdog reads what it watches and describes the groups whose lag it measures, but can
// neither join nor commit to them (READ on a group), nor write anything but events.
func TestTheWatchdogReadsAndDescribesButNeverConsumesAsAnotherGroup(t *testing.T) {
	g := Grants(Watchdog)
	for _, topic := range append([]string{contract.TopicStats, contract.TopicEvents}, contract.RawTopics...) {
		if !Allows(g, TopicResource, topic, kadm.OpRead) || !Allows(g, TopicResource, topic, kadm.OpDescribe) {
			t.Errorf("watchdog cannot read and describe %s", topic)
		}
	}
	for _, group := range []string{JobPrefix + "link-monitor", TelegrafGroupPrefix + "stats"} {
		if !Allows(g, GroupResource, group, kadm.OpDescribe) {
			t.Errorf("watchdog cannot describe group %s", group)
		}
		if Allows(g, GroupResource, group, kadm.OpRead) {
			t.Errorf("watchdog may read (join, commit to) group %s", group)
		}
	}
	if Allows(g, GroupResource, "someone-else", kadm.OpDescribe) {
		t.Error("watchdog describes groups that are not Longhaul's")
	}
	if Allows(g, TopicResource, contract.TopicDeadLetter, kadm.OpRead) {
		t.Error("watchdog reads the dead-letter topic, which it does not watch")
	}
	for _, gr := range g {
		if gr.Resource == TxnResource {
			t.Error("watchdog has a transactional id")
		}
	}
}

func TestOptionalServicesAreNotAlsoRequired(t *testing.T) {
	for _, o := range OptionalServices {
		if contains(Services, o) {
			t.Errorf("%s is both required and optional", o)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The alert bridge reads events and nothing else: no other topic, no group, no write.
func TestTheAlerterOnlyReadsEvents(t *testing.T) {
	g := Grants(Alerter)
	if !Allows(g, TopicResource, contract.TopicEvents, kadm.OpRead) {
		t.Fatal("the alerter cannot read events")
	}
	for _, topic := range append([]string{contract.TopicStats, contract.TopicDeadLetter}, contract.RawTopics...) {
		if Allows(g, TopicResource, topic, kadm.OpRead) {
			t.Errorf("the alerter reads %s", topic)
		}
	}
	if len(g) != 1 || g[0].Resource != TopicResource {
		t.Fatalf("grants %+v: want one topic grant", g)
	}
}

// pScheduler's archiver writes its topic and nothing else; the bridge reads that topic in its
// own groups and writes samples like an agent, but reads no samples and no results.
func TestThePSchedulerArchiverAndTheBridgeGetOnlyTheirPart(t *testing.T) {
	ps := Grants(PScheduler)
	if !Allows(ps, TopicResource, contract.TopicPschedulerResults, kadm.OpWrite) || len(ps) != 1 {
		t.Fatalf("pscheduler grants %+v", ps)
	}
	for _, topic := range append([]string{contract.TopicEvents, contract.TopicDeadLetter}, contract.RawTopics...) {
		if Allows(ps, TopicResource, topic, kadm.OpWrite) || Allows(ps, TopicResource, topic, kadm.OpRead) {
			t.Errorf("pscheduler reaches %s", topic)
		}
	}
	if Allows(ps, TopicResource, contract.TopicPschedulerResults, kadm.OpRead) {
		t.Error("pscheduler reads what the archivers wrote")
	}
	b := Grants(PSBridge)
	if !Allows(b, TopicResource, contract.TopicPschedulerResults, kadm.OpRead) ||
		!Allows(b, GroupResource, contract.PSBridgeGroupPrefix, kadm.OpRead) ||
		!Allows(b, TopicResource, contract.TopicDeadLetter, kadm.OpWrite) {
		t.Fatalf("psbridge grants %+v", b)
	}
	for _, topic := range contract.RawTopics {
		if !Allows(b, TopicResource, topic, kadm.OpWrite) || Allows(b, TopicResource, topic, kadm.OpRead) {
			t.Errorf("psbridge on %s: writes %v, reads %v", topic, Allows(b, TopicResource, topic, kadm.OpWrite), Allows(b, TopicResource, topic, kadm.OpRead))
		}
	}
	if Allows(b, GroupResource, JobPrefix+"link-monitor", kadm.OpRead) || Allows(b, TopicResource, contract.TopicPschedulerResults, kadm.OpWrite) {
		t.Error("psbridge joins the job's group or writes the archivers' topic")
	}
}

// A bridge of its own reads and shares like the shared bridge user, and writes its own raw topics
// alone; the job reads every bridge's host list.
func TestABridgeOfItsOwnWritesItsOwnRawTopicsAndTheJobReadsItsList(t *testing.T) {
	p, err := BridgePrincipal("CERN")
	if err != nil || p != "psbridge-cern" {
		t.Fatalf("%q %v", p, err)
	}
	b := Grants(p)
	if !Allows(b, TopicResource, contract.TopicPschedulerResults+".pscheduler-x", kadm.OpRead) ||
		!Allows(b, GroupResource, contract.PSBridgeGroupPrefix, kadm.OpRead) ||
		!Allows(b, TopicResource, contract.TopicPsbridgeSeen, kadm.OpWrite) ||
		Allows(b, TopicResource, contract.TopicBridgeHosts, kadm.OpRead) {
		t.Fatalf("%s grants %+v", p, b)
	}
	if q, ok := QuotaOf(p); !ok || q != BridgeQuota {
		t.Fatalf("quota %+v %v", q, ok)
	}
	if !Allows(Grants(Flink), TopicResource, contract.TopicBridgeHosts, kadm.OpRead) {
		t.Fatal("the job cannot read the bridges' host lists")
	}
}

func TestAPSchedulerHostWritesItsOwnArchiversTopicAlone(t *testing.T) {
	p, err := PSchedulerHostPrincipal("PS1.example.org")
	if err != nil || p != "pscheduler-ps1.example.org" {
		t.Fatalf("%q %v", p, err)
	}
	own := contract.TopicPschedulerResults + ".pscheduler-ps1.example.org"
	want := []Grant{{Resource: TopicResource, Names: []string{own}, Ops: []kadm.ACLOperation{kadm.OpWrite, kadm.OpDescribe}}}
	if !reflect.DeepEqual(Grants(p), want) {
		t.Errorf("%v", Grants(p))
	}
	if Allows(Grants(p), TopicResource, contract.TopicPschedulerResults, kadm.OpWrite) || !Allows(Grants(PScheduler), TopicResource, contract.TopicPschedulerResults, kadm.OpWrite) {
		t.Error("a host's certificate writes its own topic, the shared certificate the shared one")
	}
	f, err := LoadTopics("")
	if err != nil {
		t.Fatal(err)
	}
	if specs := OwnTopicSpecs(f, p); len(specs) != 1 || specs[0].Name != own || specs[0].Partitions != contract.OwnTopicPartitions {
		t.Errorf("its own topic: %+v", specs)
	}
	if _, err := PSchedulerHostPrincipal("bad name"); err == nil {
		t.Error("a name with a space was accepted")
	}
}
