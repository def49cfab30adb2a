package flink

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// What the watchdog (operator/watchdog) reads of a job's health: its tasks, restarts and
// checkpoints.

// Tasks counts a job's tasks by state (/jobs/overview). A job RUNNING with fewer running tasks
// than its total has lost some (a TaskManager died: RUNNING with 0/18 tasks).
type Tasks struct {
	Total   int `json:"total"`
	Running int `json:"running"`
}

// JobStatus is one job of the cluster's overview with its tasks.
type JobStatus struct {
	Job
	End      int64 `json:"end-time"` // -1 while it runs
	Modified int64 `json:"last-modification"`
	Tasks    Tasks `json:"tasks"`
}

// Overview lists the cluster's jobs, running and finished, with their tasks.
func (c *Client) Overview(ctx context.Context) ([]JobStatus, error) {
	var r struct {
		Jobs []JobStatus `json:"jobs"`
	}
	return r.Jobs, c.do(ctx, http.MethodGet, "/jobs/overview", nil, "", &r)
}

// Restarts is the job's numRestarts metric: every restart since it was submitted.
func (c *Client) Restarts(ctx context.Context, id string) (int64, error) {
	var r []struct {
		ID    string `json:"id"`
		Value string `json:"value"`
	}
	path := "/jobs/" + id + "/metrics?" + url.Values{"get": {"numRestarts"}}.Encode()
	if err := c.do(ctx, http.MethodGet, path, nil, "", &r); err != nil {
		return 0, err
	}
	for _, m := range r {
		if m.ID == "numRestarts" {
			n, err := strconv.ParseInt(m.Value, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("flink job %s: numRestarts %q: %w", id, m.Value, err)
			}
			return n, nil
		}
	}
	return 0, fmt.Errorf("flink job %s: no numRestarts metric", id)
}

// Checkpoint is one checkpoint of a job's statistics; times are epoch milliseconds.
type Checkpoint struct {
	ID             int64  `json:"id"`
	Status         string `json:"status"`
	Trigger        int64  `json:"trigger_timestamp"`
	LatestAck      int64  `json:"latest_ack_timestamp"`
	FailureTime    int64  `json:"failure_timestamp"`
	FailureMessage string `json:"failure_message"`
}

// Checkpoints is a job's checkpoint statistics: counts and the latest of each outcome (nil when
// none yet).
type Checkpoints struct {
	Counts struct {
		Total      int64 `json:"total"`
		InProgress int64 `json:"in_progress"`
		Completed  int64 `json:"completed"`
		Failed     int64 `json:"failed"`
	} `json:"counts"`
	Latest struct {
		Completed *Checkpoint `json:"completed"`
		Failed    *Checkpoint `json:"failed"`
	} `json:"latest"`
	// Interval is the job's checkpoint interval (/checkpoints/config); 0 when checkpointing is off.
	Interval time.Duration `json:"-"`
}

// Checkpoints reads a job's checkpoint statistics and interval.
func (c *Client) Checkpoints(ctx context.Context, id string) (Checkpoints, error) {
	var cp Checkpoints
	if err := c.do(ctx, http.MethodGet, "/jobs/"+id+"/checkpoints", nil, "", &cp); err != nil {
		return cp, err
	}
	var conf struct {
		Interval int64 `json:"interval"`
	}
	if err := c.do(ctx, http.MethodGet, "/jobs/"+id+"/checkpoints/config", nil, "", &conf); err != nil {
		return cp, err
	}
	if conf.Interval > 0 && conf.Interval < 1<<62 { // Long.MAX_VALUE: checkpointing off
		cp.Interval = time.Duration(conf.Interval) * time.Millisecond
	}
	return cp, nil
}
