package watchdog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Status is what the watchdog writes after every cycle (the status file): each component's
// state and evidence, and what it knows of each agent. `longhaul watchdog status` prints it.
type Status struct {
	Schema    string           `json:"schema"` // "watchdog_status"
	Version   int              `json:"version"`
	Written   int64            `json:"written_ms"`
	Started   int64            `json:"started_ms"`
	Interval  float64          `json:"interval_s"`
	Job       string           `json:"job"`
	Published int64            `json:"events_published"`
	Pending   int              `json:"events_unsent"` // raised but not yet on the events topic
	Errors    []string         `json:"errors,omitempty"`
	Untracked int64            `json:"records_of_untracked_hosts,omitempty"`
	States    []ComponentState `json:"components"`
	Agents    []AgentStatus    `json:"agents"`
}

// AgentStatus is one agent host in the status file.
type AgentStatus struct {
	Host     string   `json:"host"`
	LastSeen int64    `json:"last_seen_ms"`
	UsualGap float64  `json:"usual_gap_s"`
	Limit    float64  `json:"silence_limit_s"`
	Records  int64    `json:"records"`
	Own      bool     `json:"own_identity"`     // heard from its own identity, not only on shared topics
	Skew     *float64 `json:"skew_s,omitempty"` // nil: no sent time seen yet
	SkewN    int      `json:"skew_samples"`
}

// StatusSchema names the status file's format.
const StatusSchema = "watchdog_status"

// WriteStatus replaces path with st atomically (a temporary file renamed over it), so a reader
// never sees half a file.
func WriteStatus(path string, st Status) error {
	st.Schema, st.Version = StatusSchema, 1
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("status file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".status-*.json")
	if err != nil {
		return fmt.Errorf("status file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	if _, err = tmp.Write(append(b, '\n')); err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("status file %s: %w", path, err)
	}
	return nil
}

// ReadStatus reads a status file.
func ReadStatus(path string) (Status, error) {
	var st Status
	b, err := os.ReadFile(path)
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("status file %s: %w", path, err)
	}
	if st.Schema != StatusSchema {
		return st, fmt.Errorf("status file %s: not a watchdog status (schema %q)", path, st.Schema)
	}
	return st, nil
}

// Stale says whether the status was written too long ago for the watchdog to be running: more
// than three intervals (and at least a minute) before now.
func (st Status) Stale(now time.Time) (bool, time.Duration) {
	age := now.Sub(time.UnixMilli(st.Written))
	limit := max(3*time.Duration(st.Interval*float64(time.Second)), time.Minute)
	return age > limit, age
}

// Healthy says whether every component is healthy (pending ones are not yet alerts: healthy).
func (st Status) Healthy() bool {
	for _, c := range st.States {
		if c.State == StateDegraded {
			return false
		}
	}
	return true
}

func agentStatus(v AgentView, limit time.Duration) AgentStatus {
	a := AgentStatus{Host: v.Host, LastSeen: ms(v.LastSeen), UsualGap: seconds(v.UsualGap), Limit: seconds(limit),
		Records: v.Records, Own: v.Own, SkewN: v.Skews}
	if v.Skews > 0 {
		s := seconds(v.Skew)
		a.Skew = &s
	}
	return a
}
