package flink

import (
	"context"
	"fmt"
	"time"
)

// LinkMonitorJob is the entry class of the job jar (bin/longhaul-flink.jar).
const LinkMonitorJob = "org.longhaul.flink.jobs.LinkMonitorJob"

// DefaultName is the production job's name; tests, the bench and the demo run theirs under
// other names, side by side.
const DefaultName = "longhaul-link-monitor"

// NameArgs are the job arguments a job name implies: its Kafka consumer group and its
// transactional-id prefix are its name, so jobs of different names never share offsets or
// fence each other's transactions.
func NameArgs(name string) []string {
	return []string{"--job-name", name, "--transactional-id-prefix", name, "--group-id", name}
}

// Submission says what to submit.
type Submission struct {
	Name      string        // job name (NameArgs are added)
	Jar       string        // the job jar
	Args      []string      // further job arguments
	Savepoint string        // restore from this savepoint or retained checkpoint ("" for none)
	Replace   bool          // cancel a running job of the same name first (else keep it)
	StateDir  string        // the cluster's state folder: the job checkpoints into checkpoints/<Name> there ("": the cluster's default)
	Wait      time.Duration // how long the job may take to have every task RUNNING
}

// Submit starts the job unless one of that name runs (then its id is returned with
// started=false), and waits until all its tasks run. A job that fails on start is reported
// with its root exception.
func (c *Client) Submit(ctx context.Context, s Submission) (id string, started bool, err error) {
	running, err := c.Running(ctx, s.Name)
	if err != nil {
		return "", false, err
	}
	if len(running) > 0 && !s.Replace {
		return running[0].ID, false, nil
	}
	for _, j := range running {
		if err := c.End(ctx, j.ID, s.Wait); err != nil {
			return "", false, err
		}
	}
	jar, err := c.Upload(ctx, s.Jar)
	if err != nil {
		return "", false, err
	}
	defer c.DeleteJar(context.WithoutCancel(ctx), jar) // the job graph is on the blob server by then
	id, err = c.Run(ctx, jar, LinkMonitorJob, append(NameArgs(s.Name), s.Args...), s.Savepoint, JobConfig(s.StateDir, s.Name))
	if err != nil {
		return "", false, err
	}
	return id, true, c.WaitRunning(ctx, id, s.Wait)
}

// WaitRunning waits until the job and every one of its vertices is RUNNING.
func (c *Client) WaitRunning(ctx context.Context, id string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		d, err := c.Job(ctx, id)
		if err != nil {
			return err
		}
		if d.State == "RUNNING" && allRunning(d) {
			return nil
		}
		if Terminal(d.State) {
			return fmt.Errorf("job %s %s: %s", id, d.State, c.RootException(ctx, id))
		}
		if d.State == "RESTARTING" || d.State == "FAILING" {
			// failed before it ever ran: Flink retries it without end (a wrong credential, a
			// missing topic or ACL), so waiting would only hide the cause
			return fmt.Errorf("job %s failed on start and is %s (Flink retries it until it is canceled): %s",
				id, d.State, c.RootException(ctx, id))
		}
		last = d.State
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("job %s not running with all its tasks after %s (state %s)", id, timeout, last)
}

func allRunning(d Detail) bool {
	if len(d.Vertices) == 0 {
		return false
	}
	for _, v := range d.Vertices {
		if v.Status != "RUNNING" {
			return false
		}
	}
	return true
}

// End stops a job the way that leaves nothing behind: after a savepoint (the cluster's default
// folder), which commits the Kafka transactions its exactly-once sinks hold open; a canceled job
// leaves them open until the transaction timeout, and until then no read_committed consumer reads
// past them (the events of every other job on those partitions wait too). A job that cannot take
// a savepoint (failing, restarting) is canceled.
func (c *Client) End(ctx context.Context, id string, timeout time.Duration) error {
	if _, err := c.StopWithSavepoint(ctx, id, "", timeout); err == nil {
		return c.waitTerminal(ctx, id, timeout)
	}
	if d, err := c.Job(ctx, id); err == nil && Terminal(d.State) {
		return nil
	}
	return c.CancelAndWait(ctx, id, timeout)
}

// CancelAndWait cancels a job and waits until it is in a terminal state.
func (c *Client) CancelAndWait(ctx context.Context, id string, timeout time.Duration) error {
	if err := c.Cancel(ctx, id); err != nil {
		return err
	}
	return c.waitTerminal(ctx, id, timeout)
}

// StopWithSavepoint stops a job after a savepoint into dir and returns the savepoint's location.
func (c *Client) StopWithSavepoint(ctx context.Context, id, dir string, timeout time.Duration) (string, error) {
	return c.savepointAndWait(ctx, id, dir, true, timeout)
}

// TakeSavepoint takes a savepoint into dir while the job keeps running.
func (c *Client) TakeSavepoint(ctx context.Context, id, dir string, timeout time.Duration) (string, error) {
	return c.savepointAndWait(ctx, id, dir, false, timeout)
}

func (c *Client) savepointAndWait(ctx context.Context, id, dir string, stop bool, timeout time.Duration) (string, error) {
	trigger, err := c.Savepoint(ctx, id, dir, stop)
	if err != nil {
		return "", err
	}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		done, loc, err := c.SavepointResult(ctx, id, trigger)
		if done || err != nil {
			return loc, err
		}
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("savepoint of job %s not complete after %s", id, timeout)
}

func (c *Client) waitTerminal(ctx context.Context, id string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		d, err := c.Job(ctx, id)
		if err != nil {
			return err
		}
		if Terminal(d.State) {
			return nil
		}
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("job %s still not ended %s after cancel", id, timeout)
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
