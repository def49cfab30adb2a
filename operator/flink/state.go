package flink

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// A job's state lives in the cluster's state folder, one folder per job name, so that a job
// restores only its own state (the newest checkpoint of any job would do: every job has the
// same operator uids, and Flink would restore another job's state without a word):
//
//	checkpoints/<name>/<job id>/chk-<n>/_metadata   retained on cancel and on a crash
//	savepoints/<name>/savepoint-<id>-<rand>/_metadata
const (
	checkpointsDir = "checkpoints"
	savepointsDir  = "savepoints"
	metadataFile   = "_metadata"
)

// CheckpointDir is the folder a job of this name checkpoints into.
func CheckpointDir(stateDir, name string) string {
	return filepath.Join(stateDir, checkpointsDir, name)
}

// SavepointDir is the folder a job of this name saves into.
func SavepointDir(stateDir, name string) string {
	return filepath.Join(stateDir, savepointsDir, name)
}

// JobConfig is the Flink configuration a job of this name runs with: its own checkpoint and
// savepoint folders (nil when stateDir is empty: the cluster's defaults). Retention on cancel and
// how many checkpoints are kept are the cluster's (scripts/stack/flink.sh).
func JobConfig(stateDir, name string) map[string]string {
	if stateDir == "" {
		return nil
	}
	return map[string]string{
		"execution.checkpointing.dir":           "file://" + CheckpointDir(stateDir, name),
		"execution.checkpointing.savepoint-dir": "file://" + SavepointDir(stateDir, name),
	}
}

// RestorePoint is a completed savepoint or retained checkpoint.
type RestorePoint struct {
	Path  string    // the folder holding _metadata: what Flink's savepointPath takes
	Kind  string    // "savepoint" or "checkpoint"
	JobID string    // the job that wrote it (checkpoints only)
	Time  time.Time // when its _metadata was written
}

// RestorePoints lists a job name's savepoints and retained checkpoints, newest first. Only
// complete ones count: Flink writes _metadata last.
func RestorePoints(stateDir, name string) ([]RestorePoint, error) {
	var out []RestorePoint
	add := func(pattern, kind string) error {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			return err
		}
		for _, m := range paths {
			st, err := os.Stat(m)
			if err != nil || st.Size() == 0 {
				continue
			}
			dir := filepath.Dir(m)
			p := RestorePoint{Path: dir, Kind: kind, Time: st.ModTime()}
			if kind == "checkpoint" {
				p.JobID = filepath.Base(filepath.Dir(dir))
			}
			out = append(out, p)
		}
		return nil
	}
	if err := add(filepath.Join(SavepointDir(stateDir, name), "*", metadataFile), "savepoint"); err != nil {
		return nil, err
	}
	if err := add(filepath.Join(CheckpointDir(stateDir, name), "*", "chk-*", metadataFile), "checkpoint"); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	return out, nil
}

// NewestRestorePoint is the state a job of this name resumes from, or ok=false for none.
func NewestRestorePoint(stateDir, name string) (p RestorePoint, ok bool, err error) {
	all, err := RestorePoints(stateDir, name)
	if err != nil || len(all) == 0 {
		return RestorePoint{}, false, err
	}
	return all[0], true, nil
}

// Prune removes what can no longer be the newest restore point of a job name: the checkpoint
// folders of earlier jobs (Flink never removes a job id's folder itself) once the running job
// keepJobID has a newer checkpoint of its own, and all but the newest keepSavepoints savepoints.
// It returns the folders it removed.
func Prune(stateDir, name, keepJobID string, keepSavepoints int) ([]string, error) {
	all, err := RestorePoints(stateDir, name)
	if err != nil {
		return nil, err
	}
	var own time.Time
	for _, p := range all {
		if p.Kind == "checkpoint" && p.JobID == keepJobID {
			own = p.Time
			break
		}
	}
	var removed []string
	jobDirs, _ := filepath.Glob(filepath.Join(CheckpointDir(stateDir, name), "*"))
	for _, d := range jobDirs {
		id := filepath.Base(d)
		if own.IsZero() || id == keepJobID || id == "shared" || id == "taskowned" {
			continue
		}
		if newestIn(all, id).Before(own) {
			if err := os.RemoveAll(d); err != nil {
				return removed, fmt.Errorf("prune %s: %w", d, err)
			}
			removed = append(removed, d)
		}
	}
	saves := 0
	for _, p := range all {
		if p.Kind != "savepoint" {
			continue
		}
		if saves++; saves > keepSavepoints && !own.IsZero() {
			if err := os.RemoveAll(p.Path); err != nil {
				return removed, fmt.Errorf("prune %s: %w", p.Path, err)
			}
			removed = append(removed, p.Path)
		}
	}
	return removed, nil
}

// newestIn is the time of job id's newest checkpoint (zero when it has none: an empty folder).
func newestIn(all []RestorePoint, id string) time.Time {
	for _, p := range all {
		if p.Kind == "checkpoint" && p.JobID == id {
			return p.Time
		}
	}
	return time.Time{}
}
