package kafkaadmin

import (
	"reflect"
	"strings"
	"testing"

	"longhaul/ingest/contract"
)

// Every raw topic is LogAppendTime: the record timestamp the Flink job reads is the broker's.
func TestRawTopicsAreStampedByTheBroker(t *testing.T) {
	f, err := LoadTopics("../../ingest/topics.yaml")
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string]bool{}
	for _, name := range contract.RawTopics {
		raw[name] = true
	}
	n := 0
	for _, tp := range f.Topics {
		if !raw[tp.Name] {
			continue
		}
		n++
		if got := tp.Configs()[cfgTimestampType]; got == nil || *got != LogAppendTime {
			t.Errorf("%s: message.timestamp.type %v, want %s", tp.Name, got, LogAppendTime)
		}
	}
	if n != len(contract.RawTopics) {
		t.Errorf("topics.yaml has %d of the contract's %d raw topics", n, len(contract.RawTopics))
	}
}

func TestDriftNamesOnlyTheKeptConfigsThatDiffer(t *testing.T) {
	spec := TopicSpec{Name: "r", Partitions: 1, CleanupPolicy: "delete", RetentionMs: 1000, TimestampType: LogAppendTime}
	cases := []struct {
		name string
		have map[string]string
		want []ConfigChange
	}{
		{"an install older than the rule", map[string]string{cfgTimestampType: CreateTime, cfgRetentionMs: "1000"},
			[]ConfigChange{{Key: cfgTimestampType, Have: CreateTime, Want: LogAppendTime}}},
		{"already right", map[string]string{cfgTimestampType: LogAppendTime}, nil},
		// an operator's retention is theirs, as partition counts are
		{"retention tuned by hand", map[string]string{cfgTimestampType: LogAppendTime, cfgRetentionMs: "5"}, nil},
	}
	for _, c := range cases {
		if got := spec.Drift(c.have); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: drift %v, want %v", c.name, got, c.want)
		}
	}
	unset := spec
	unset.TimestampType = ""
	if got := unset.Drift(map[string]string{cfgTimestampType: CreateTime}); got != nil {
		t.Errorf("a spec without timestamp_type leaves the topic's alone; drift %v", got)
	}
	if _, ok := unset.Configs()[cfgTimestampType]; ok {
		t.Error("a spec without timestamp_type sets message.timestamp.type at creation")
	}
}

func TestUnknownTimestampTypeNamesFileLineAndField(t *testing.T) {
	p := writeFile(t, "topics:\n  - name: a\n    partitions: 1\n    cleanup_policy: delete\n    retention_ms: 1\n    timestamp_type: BrokerTime\n")
	_, err := LoadTopics(p)
	if err == nil || !strings.Contains(err.Error(), p+":2: topics[0].timestamp_type: \"BrokerTime\" is not CreateTime or LogAppendTime") {
		t.Errorf("got %v", err)
	}
}

func TestABoundIsSetWhereATopicHasNoneAndNeverOverAnOperatorsOwn(t *testing.T) {
	spec := TopicSpec{Name: "d", Partitions: 1, CleanupPolicy: "delete", RetentionMs: 1000, RetentionBytes: 1 << 30}
	want := []ConfigChange{{Key: cfgRetentionBy, Have: "-1", Want: "1073741824"}}
	if got := spec.Drift(map[string]string{cfgRetentionBy: "-1"}); !reflect.DeepEqual(got, want) {
		t.Errorf("an unbounded topic: drift %v, want %v", got, want)
	}
	if got := spec.Drift(map[string]string{cfgRetentionBy: "5000"}); got != nil {
		t.Errorf("an operator's bound is theirs: drift %v", got)
	}
	if got := (TopicSpec{Name: "r"}).Drift(map[string]string{cfgRetentionBy: "-1"}); got != nil {
		t.Errorf("a spec without a bound sets none: drift %v", got)
	}
	if _, ok := (TopicSpec{Name: "r"}).Configs()[cfgRetentionBy]; ok {
		t.Error("a spec without retention_bytes sets retention.bytes at creation")
	}
}
