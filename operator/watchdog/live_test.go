package watchdog

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaadmin"
)

func TestARawRecordIsFiledUnderItsAgentWithItsSentTime(t *testing.T) {
	book, tip := NewAgentBook(10), &StatsTip{}
	broker := at(0)
	note(&kgo.Record{Topic: contract.TopicRawRTT, Key: []byte("perfsonar.ihep.ac.cn|cclhcone01.in2p3.fr"), Timestamp: broker,
		Headers: []kgo.RecordHeader{{Key: contract.HeaderSentMs, Value: []byte("1795466887500")}}}, book, tip, kafkaadmin.NewBridgeLists())
	note(&kgo.Record{Topic: contract.TopicRawHost, Value: []byte(`{"src":"keyless.example.org"}`), Timestamp: broker}, book, tip, kafkaadmin.NewBridgeLists())
	v, _ := book.Views()
	if len(v) != 2 || v[1].Host != "perfsonar.ihep.ac.cn" || v[1].Skews != 1 || v[1].Skew != -500*time.Millisecond || v[0].Host != "keyless.example.org" {
		t.Fatalf("%+v", v)
	}
	if _, ok := SentMs([]kgo.RecordHeader{{Key: contract.HeaderSentMs, Value: []byte("soon")}}); ok {
		t.Fatal("a header that is no number was read")
	}
}

func TestOnlyMinuteStatisticsMoveTheTip(t *testing.T) {
	book, tip := NewAgentBook(10), &StatsTip{}
	note(&kgo.Record{Topic: contract.TopicStats, Timestamp: at(0), Value: []byte(`{"window":"1h","ts":1795466940000}`)}, book, tip, kafkaadmin.NewBridgeLists())
	if !tip.Due(at(600), time.Minute).IsZero() {
		t.Fatal("an hourly statistic is due in the raw policy")
	}
	note(&kgo.Record{Topic: contract.TopicStats, Timestamp: at(0), Value: []byte(`{"window":"1m","ts":1795466880000}`)}, book, tip, kafkaadmin.NewBridgeLists())
	if d := tip.Due(at(600), time.Minute); d.UnixMilli() != 1795466880000 {
		t.Fatalf("%v", d)
	}
	if v, _ := book.Views(); len(v) != 0 {
		t.Fatal("a statistic was taken for an agent")
	}
}

func TestTheFollowedTopicsAreTheRawOnesTheAgentsOwnAndStats(t *testing.T) {
	var res []*regexp.Regexp
	for _, p := range FollowTopics() {
		res = append(res, regexp.MustCompile(p))
	}
	follows := func(topic string) bool {
		return slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(topic) })
	}
	for _, topic := range append(slices.Clone(contract.RawTopics), contract.TopicStats, contract.OwnTopic(contract.TopicRawHost, "agent-a")) {
		if !follows(topic) {
			t.Errorf("%s not followed", topic)
		}
	}
	for _, topic := range []string{contract.TopicEvents, contract.TopicDeadLetter, contract.OwnTopic(contract.TopicDeadLetter, "agent-a"), contract.TopicStats + ".x", contract.TopicHistoryThroughput} {
		if follows(topic) {
			t.Errorf("%s followed", topic)
		}
	}
}

func TestAHostOutsideItsBridgesListIsNoSignOfLife(t *testing.T) {
	book, tip, lists := NewAgentBook(10), &StatsTip{}, kafkaadmin.NewBridgeLists()
	now := time.Now()
	_, msg, _ := kafkaadmin.NewBridgeHosts("psbridge-x", []string{"ps1"}, now)
	note(&kgo.Record{Topic: contract.TopicBridgeHosts, Key: []byte("psbridge-x"), Value: msg}, book, tip, lists)
	own := contract.OwnTopic(contract.TopicRawLatency, "psbridge-x")
	note(&kgo.Record{Topic: own, Key: []byte("ps9|c"), Timestamp: now}, book, tip, lists)
	if v, _ := book.Views(); len(v) != 0 {
		t.Fatalf("psbridge-x's record of an unlisted host made %v alive", v)
	}
	note(&kgo.Record{Topic: own, Key: []byte("ps1|c"), Timestamp: now}, book, tip, lists)
	if v, _ := book.Views(); len(v) != 1 || v[0].Host != "ps1" {
		t.Fatalf("psbridge-x's listed host: %v", v)
	}
}

func TestAnotherSitesSrcOnAnAgentsTopicIsNoSignOfLife(t *testing.T) {
	book, tip := NewAgentBook(10), &StatsTip{}
	now := time.Now()
	note(&kgo.Record{Topic: contract.OwnTopic(contract.TopicRawRTT, "agent-a"), Key: []byte("b|c"), Timestamp: now}, book, tip, kafkaadmin.NewBridgeLists())
	if v, _ := book.Views(); len(v) != 0 {
		t.Fatalf("agent-a's record made %v alive", v)
	}
	note(&kgo.Record{Topic: contract.OwnTopic(contract.TopicRawRTT, "agent-a"), Key: []byte("a|c"), Timestamp: now}, book, tip, kafkaadmin.NewBridgeLists())
	if v, _ := book.Views(); len(v) != 1 {
		t.Fatalf("agent-a's own record: %v", v)
	}
}

func TestAFloodOfNamesOnASharedRawTopicLeavesAnAgentsOwnHostWatched(t *testing.T) {
	book, tip, lists := NewAgentBook(3), &StatsTip{}, kafkaadmin.NewBridgeLists()
	now := time.Now()
	for i := range 10 {
		key := []byte(fmt.Sprintf("forged-%d|c", i))
		note(&kgo.Record{Topic: contract.TopicRawLatency, Key: key, Timestamp: now}, book, tip, lists)
	}
	own := contract.OwnTopic(contract.TopicRawLatency, contract.OwnTopicPrincipalPrefix+"cern-ps1")
	note(&kgo.Record{Topic: own, Key: []byte("cern-ps1|c"), Timestamp: now}, book, tip, lists)
	v, untracked := book.Views()
	if len(v) != 4 || !slices.ContainsFunc(v, func(a AgentView) bool { return a.Host == "cern-ps1" }) || untracked != 7 {
		t.Fatalf("%d hosts kept (%v), %d records untracked", len(v), v, untracked)
	}
}
