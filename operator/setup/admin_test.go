package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "topics.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
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
