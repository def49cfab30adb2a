package kafkaadmin

import (
	"fmt"
	"testing"

	"longhaul/ingest/contract"
)

func TestAnAgentsOwnTopicsAreItsSharedTopicsSettingsWithOnePartition(t *testing.T) {
	f, err := LoadTopics("")
	if err != nil {
		t.Fatal(err)
	}
	specs := OwnTopicSpecs(f, "agent-a")
	if len(specs) != len(contract.RawTopics)+1 || specs[len(specs)-1].Name != "longhaul.deadletter.agent-a" {
		t.Fatalf("%d own topics, want one per raw topic (%d) and its dead letters: %+v", len(specs), len(contract.RawTopics), specs)
	}
	shared := map[string]TopicSpec{}
	for _, t := range f.Topics {
		shared[t.Name] = t
	}
	for _, s := range specs {
		w, raw := contract.WriterOf(s.Name)
		base := shared[raw]
		if w != "agent-a" || s.Partitions != contract.OwnTopicPartitions || s.RetentionMs != base.RetentionMs ||
			s.TimestampType != base.TimestampType || s.CleanupPolicy != base.CleanupPolicy ||
			*s.Configs()["retention.bytes"] != fmt.Sprint(contract.OwnTopicRetentionBytes) {
			t.Errorf("%+v: want agent-a's copy of %+v with %d partitions", s, base, contract.OwnTopicPartitions)
		}
	}
	if OwnTopicSpecs(f, PSBridge) != nil {
		t.Fatal("the bridge has no topics of its own")
	}
}
