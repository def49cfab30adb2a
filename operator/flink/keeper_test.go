package flink

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func keeper(t *testing.T, rc *restCluster, state string) *Keeper {
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return &Keeper{Client: &Client{URL: srv.URL}, Name: "longhaul-a", Jar: jar(t), StateDir: state, Wait: 5 * time.Second,
		Args: func() ([]string, error) { return []string{"--kafka", "k:1"}, nil }}
}

func TestTheKeeperResubmitsAMissingJobFromItsNewestStateOnTheSecondLook(t *testing.T) {
	state := t.TempDir()
	chk := writeMeta(t, filepath.Join(CheckpointDir(state, "longhaul-a"), "j1", "chk-4"), time.Now())
	rc := &restCluster{tms: 1, jobs: []Job{{ID: "j1", Name: "longhaul-a", State: "FAILED"}}}
	k := keeper(t, rc, state)
	if did, err := k.Step(context.Background()); did != "" || err != nil || rc.runArgs != nil {
		t.Fatalf("first look: %q %v (a submit --replace may be in progress)", did, err)
	}
	did, err := k.Step(context.Background())
	if err != nil || !strings.Contains(did, "restoring the checkpoint") {
		t.Fatalf("second look: %q %v", did, err)
	}
	if rc.restored != chk || rc.config["execution.checkpointing.dir"] != "file://"+CheckpointDir(state, "longhaul-a") {
		t.Fatalf("restored %q config %v", rc.restored, rc.config)
	}
	if did, _ := k.Step(context.Background()); did != "" {
		t.Fatalf("a running job is left alone: %q", did)
	}
}

func TestTheKeeperWaitsForATaskManagerAndLeavesARestartingJobToFlink(t *testing.T) {
	rc := &restCluster{tms: 0}
	k := keeper(t, rc, t.TempDir())
	for i := 0; i < 3; i++ {
		if did, err := k.Step(context.Background()); did != "" || err != nil {
			t.Fatalf("no TaskManager: %q %v", did, err)
		}
	}
	rc.tms, rc.jobs = 1, []Job{{ID: "j1", Name: "longhaul-a", State: "RESTARTING"}}
	for i := 0; i < 3; i++ {
		if did, err := k.Step(context.Background()); did != "" || err != nil || rc.runArgs != nil {
			t.Fatalf("restarting job: %q %v", did, err)
		}
	}
}

func TestAFreshJobStartsWithNoState(t *testing.T) {
	rc := &restCluster{tms: 1}
	k := keeper(t, rc, t.TempDir())
	k.Step(context.Background())
	did, err := k.Step(context.Background())
	if err != nil || !strings.Contains(did, "with no earlier state") || rc.restored != "" {
		t.Fatalf("%q %v restored %q", did, err, rc.restored)
	}
}
