package kafkaadmin

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"longhaul/ingest/contract"
)

func topicsFile(t *testing.T) *TopicsFile {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	f, err := LoadTopics(filepath.Join(filepath.Dir(here), "..", "..", "ingest", "topics.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestTheReplicationSettingOverridesTheTopicsFile(t *testing.T) {
	f := topicsFile(t)
	if f.Defaults.ReplicationFactor != 1 {
		t.Fatalf("ingest/topics.yaml's factor is %d, the single native broker's is 1", f.Defaults.ReplicationFactor)
	}
	for _, keep := range []string{"", "0"} {
		if err := f.SetReplication(keep); err != nil || f.Defaults.ReplicationFactor != 1 {
			t.Fatalf("%q: factor %d, err %v; want the file's 1", keep, f.Defaults.ReplicationFactor, err)
		}
	}
	if err := f.SetReplication("3"); err != nil || f.Defaults.ReplicationFactor != 3 {
		t.Fatalf("3: factor %d, err %v", f.Defaults.ReplicationFactor, err)
	}
}

func TestABadReplicationSettingIsRefusedByName(t *testing.T) {
	for _, bad := range []string{"-1", "three", "1.5", "40000"} {
		f := topicsFile(t)
		err := f.SetReplication(bad)
		if err == nil || !strings.Contains(err.Error(), "replication factor") || f.Defaults.ReplicationFactor != 1 {
			t.Errorf("%q: err %v, factor %d", bad, err, f.Defaults.ReplicationFactor)
		}
	}
}

func TestTheProjectTopicsFileLoadsWithEveryRawAndResultTopic(t *testing.T) {
	f, err := LoadTopics("../../ingest/topics.yaml")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tp := range f.Topics {
		names[tp.Name] = true
	}
	for role, want := range contract.Topics {
		if !names[want] {
			t.Errorf("topics.yaml lacks %s (the contract's %s topic)", want, role)
		}
	}
	if len(f.Topics) != len(contract.Topics) {
		t.Errorf("topics.yaml has %d topics, the contract names %d", len(f.Topics), len(contract.Topics))
	}
}

func TestBadTopicNamesFileLineAndField(t *testing.T) {
	cases := map[string]string{
		"topics:\n  - name: a\n    partitions: 1\n    cleanup_policy: delete\n    retention_ms: 1\n  - name: b\n    partitions: 0\n    cleanup_policy: delete\n    retention_ms: 1\n": ":6: topics[1].partitions",
		"topics:\n  - name: a\n    partitions: 1\n    cleanup_policy: delete\n    retention_ms: 1\n    retention_bytes: -5\n":                                                         ":2: topics[0].retention_bytes",
		"topics:\n  - name: a\n    partitions: 1\n    cleanup_policy: shred\n    retention_ms: 1\n":                                                                                   ":2: topics[0].cleanup_policy",
		"topics:\n  - name: a\n    partitions: 1\n    cleanup_policy: delete\n    retention_ms: 1\n  - name: a\n    partitions: 1\n    cleanup_policy: delete\n    retention_ms: 1\n": ":6: topics[1].name: duplicate",
		"topics:\n  - name: a\n    partitons: 1\n": "field partitons not found",
	}
	for body, want := range cases {
		p := writeFile(t, body)
		_, err := LoadTopics(p)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("want %q naming %s, got %v", want, p, err)
		}
	}
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "topics.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
