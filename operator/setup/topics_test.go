package setup

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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
