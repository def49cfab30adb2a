package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/ingest/contract"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "topics.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
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

func TestRetentionStatementsCreateThenAlterEveryPolicy(t *testing.T) {
	f, err := LoadRetention("../../ingest/influxdb/retention.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(f.Statements(), "\n")
	for _, want := range []string{
		`CREATE DATABASE "longhaul"`,
		`CREATE RETENTION POLICY "raw" ON "longhaul" DURATION 30d REPLICATION 1 SHARD DURATION 1d DEFAULT`,
		`ALTER RETENTION POLICY "daily" ON "longhaul" DURATION INF REPLICATION 1 SHARD DURATION 52w`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("statements lack %q:\n%s", want, got)
		}
	}
}

func TestRetentionNeedsExactlyOneDefault(t *testing.T) {
	p := writeFile(t, "database: x\npolicies:\n  - {name: a, duration: 1d}\n  - {name: b, duration: 2d}\n")
	if _, err := LoadRetention(p); err == nil || !strings.Contains(err.Error(), "exactly one default") {
		t.Errorf("got %v", err)
	}
}
