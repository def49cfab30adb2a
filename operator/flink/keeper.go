package flink

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Keeper keeps one job running on a session cluster, as the Flink Kubernetes Operator does for
// a FlinkDeployment: when the cluster has a TaskManager but no job of that name is alive
// (after a JobManager restart without HA, a `make up`, a canceled job), it submits the job
// again, restoring from the newest savepoint or retained checkpoint of that name. A job that
// is alive, even restarting, is Flink's own to recover (its restart strategy); the watchdog
// reports one that restarts in a loop. Two looks in a row must find the job missing, so a
// `longhaul job submit --replace` in progress is not raced.
type Keeper struct {
	Client   *Client
	Name     string
	Jar      string
	Args     func() ([]string, error) // the job arguments, read afresh for each submission
	StateDir string
	Wait     time.Duration // how long a submitted job may take to have every task running
	Log      io.Writer

	missing int // consecutive looks that found no live job
}

// Step is one look at the cluster; it returns what it did ("" for nothing).
func (k *Keeper) Step(ctx context.Context) (string, error) {
	tms, err := k.Client.TaskManagers(ctx)
	if err != nil {
		k.missing = 0
		return "", fmt.Errorf("flink unreachable: %w", err)
	}
	if tms == 0 {
		k.missing = 0
		return "", nil // nothing could run it; the TaskManager's supervisor brings one back
	}
	live, err := k.Client.Running(ctx, k.Name)
	if err != nil {
		return "", err
	}
	if len(live) > 0 {
		k.missing = 0
		if live[0].State == "RUNNING" {
			if removed, err := Prune(k.StateDir, k.Name, live[0].ID, 3); err == nil && len(removed) > 0 {
				return fmt.Sprintf("pruned %d old checkpoint/savepoint folders of %s", len(removed), k.Name), nil
			}
		}
		return "", nil
	}
	if k.missing++; k.missing < 2 {
		return "", nil
	}
	k.missing = 0
	return k.submit(ctx)
}

func (k *Keeper) submit(ctx context.Context) (string, error) {
	args, err := k.Args()
	if err != nil {
		return "", err
	}
	from, ok, err := NewestRestorePoint(k.StateDir, k.Name)
	if err != nil {
		return "", err
	}
	s := Submission{Name: k.Name, Jar: k.Jar, Args: args, StateDir: k.StateDir, Wait: k.Wait}
	what := "with no earlier state"
	if ok {
		s.Savepoint = from.Path
		what = fmt.Sprintf("restoring the %s %s (%s)", from.Kind, from.Path, from.Time.UTC().Format(time.RFC3339))
	}
	id, _, err := k.Client.Submit(ctx, s)
	if err != nil {
		return "", fmt.Errorf("submit %s %s: %w", k.Name, what, err)
	}
	return fmt.Sprintf("submitted %s (%s) %s; %s", k.Name, id, what, jarLine(k.Jar)), nil
}

// Run looks every interval until ctx ends, logging what it does and every error (a keeper
// that cannot reach Flink keeps trying: Flink's supervisor is bringing it back).
func (k *Keeper) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		did, err := k.Step(ctx)
		stamp := time.Now().UTC().Format(time.RFC3339)
		if err != nil {
			fmt.Fprintf(k.Log, "%s keeper %s: %v\n", stamp, k.Name, err)
		} else if did != "" {
			fmt.Fprintf(k.Log, "%s keeper: %s\n", stamp, did)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// TaskManagers is how many TaskManagers have registered with the cluster.
func (c *Client) TaskManagers(ctx context.Context) (int, error) {
	var r struct {
		TaskManagers int `json:"taskmanagers"`
	}
	return r.TaskManagers, c.do(ctx, http.MethodGet, "/overview", nil, "", &r)
}

// jarLine says which build a submission ran (a package upgrade replaces the jar under a keeper).
func jarLine(jar string) string {
	build, err := JarBuild(jar)
	if err != nil {
		return err.Error()
	}
	return build
}
