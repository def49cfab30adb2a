package flink

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// writeMeta makes a restore point's _metadata under dir, written at t.
func writeMeta(t *testing.T, dir string, at time.Time) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, metadataFile)
	if err := os.WriteFile(m, []byte("meta"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(m, at, at); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestTheNewestRestorePointIsTheJobsOwnNeverAnotherJobsOfTheSameOperators(t *testing.T) {
	state, t0 := t.TempDir(), time.Now().Add(-time.Hour)
	writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-a"), "j1", "chk-7"), t0)
	own := writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-a"), "j2", "chk-3"), t0.Add(time.Minute))
	writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-b"), "j9", "chk-1"), t0.Add(time.Hour)) // newer, another job
	// a checkpoint in progress: no _metadata yet
	if err := os.MkdirAll(filepath.Join(CheckpointDir(state, "longhaul-a"), "j2", "chk-4"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, ok, err := NewestRestorePoint(state, "longhaul-a")
	if err != nil || !ok || p.Path != own || p.Kind != "checkpoint" || p.JobID != "j2" {
		t.Fatalf("%+v %v %v, want %s", p, ok, err, own)
	}
}

func TestASavepointTakenAfterTheLastCheckpointWins(t *testing.T) {
	state, t0 := t.TempDir(), time.Now().Add(-time.Hour)
	writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-a"), "j1", "chk-7"), t0)
	sp := writeMeta(t, filepath.Join(SavepointDir(state, "longhaul-a"), "savepoint-j1-abc"), t0.Add(time.Second))
	p, ok, _ := NewestRestorePoint(state, "longhaul-a")
	if !ok || p.Path != sp || p.Kind != "savepoint" {
		t.Fatalf("%+v", p)
	}
	if _, ok, _ := NewestRestorePoint(state, "longhaul-none"); ok {
		t.Fatal("a job with no state has no restore point")
	}
}

func TestPruneKeepsTheRunningJobsAndNewerStateAndTheNewestSavepoints(t *testing.T) {
	state, t0 := t.TempDir(), time.Now().Add(-time.Hour)
	old := writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-a"), "j1", "chk-7"), t0)
	writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-a"), "j2", "chk-9"), t0.Add(2*time.Minute))
	var saves []string
	for i := 0; i < 5; i++ {
		saves = append(saves, writeMeta(t, filepath.Join(SavepointDir(state, "longhaul-a"), "savepoint-"+string(rune('a'+i))), t0.Add(time.Duration(i)*time.Second)))
	}
	// the running job j3 has no checkpoint yet: nothing may go
	if removed, err := Prune(state, "longhaul-a", "j3", 3); err != nil || len(removed) != 0 {
		t.Fatalf("pruned %v (%v) before the running job checkpointed", removed, err)
	}
	writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-a"), "j3", "chk-1"), t0.Add(3*time.Minute))
	removed, err := Prune(state, "longhaul-a", "j3", 3)
	if err != nil || len(removed) != 4 {
		t.Fatalf("removed %v, %v", removed, err)
	}
	for _, gone := range []string{filepath.Dir(old), saves[0], saves[1]} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Fatalf("%s kept", gone)
		}
	}
	if p, _, _ := NewestRestorePoint(state, "longhaul-a"); p.JobID != "j3" {
		t.Fatalf("newest after pruning: %+v", p)
	}
	if _, err := os.Stat(saves[4]); err != nil {
		t.Fatal("the newest savepoint was pruned")
	}
}

func TestJobConfigGivesEachJobItsOwnFolders(t *testing.T) {
	c := JobConfig("/var/lib/longhaul/flink", "longhaul-a")
	if c["execution.checkpointing.dir"] != "file:///var/lib/longhaul/flink/checkpoints/longhaul-a" ||
		c["execution.checkpointing.savepoint-dir"] != "file:///var/lib/longhaul/flink/savepoints/longhaul-a" {
		t.Fatal(c)
	}
	if JobConfig("", "x") != nil {
		t.Fatal("no state dir: the cluster's defaults")
	}
}
