// Package flink is the one client of Flink's REST API in Go: the job lifecycle (submit,
// savepoint, stop, cancel) that `longhaul job` gives scripts, tests, the bench and the demo.
package flink

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Client talks to one Flink cluster's REST endpoint (the JobManager).
type Client struct {
	URL  string
	HTTP *http.Client
}

// Job is one job of the cluster's overview.
type Job struct {
	ID    string `json:"jid"`
	Name  string `json:"name"`
	State string `json:"state"`
	Start int64  `json:"start-time"`
}

// Jobs lists the cluster's jobs, running and finished.
func (c *Client) Jobs(ctx context.Context) ([]Job, error) {
	all, err := c.Overview(ctx)
	jobs := make([]Job, len(all))
	for i, j := range all {
		jobs[i] = j.Job
	}
	return jobs, err
}

// Running returns the RUNNING (or starting) jobs with this name.
func (c *Client) Running(ctx context.Context, name string) ([]Job, error) {
	jobs, err := c.Jobs(ctx)
	if err != nil {
		return nil, err
	}
	var out []Job
	for _, j := range jobs {
		if j.Name == name && !Terminal(j.State) {
			out = append(out, j)
		}
	}
	return out, nil
}

// Terminal is true for the states a job does not leave.
func Terminal(state string) bool {
	switch state {
	case "FINISHED", "CANCELED", "FAILED", "SUSPENDED":
		return true
	}
	return false
}

// Upload sends a job jar and returns its id on the cluster.
func (c *Client) Upload(ctx context.Context, jar string) (string, error) {
	f, err := os.Open(jar)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("jarfile", filepath.Base(jar))
	if err == nil {
		_, err = io.Copy(part, f)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		return "", err
	}
	var r struct {
		Filename string `json:"filename"`
	}
	if err := c.do(ctx, http.MethodPost, "/jars/upload", &body, mw.FormDataContentType(), &r); err != nil {
		return "", err
	}
	return filepath.Base(r.Filename), nil
}

// Run starts an uploaded jar's entry class; savepoint, when not empty, is the state to restore;
// config is the job's own Flink configuration (FLIP-256's flinkConfiguration), e.g. its
// checkpoint folder.
func (c *Client) Run(ctx context.Context, jarID, entryClass string, args []string, savepoint string, config map[string]string) (string, error) {
	req := map[string]any{"entryClass": entryClass, "programArgsList": args}
	if savepoint != "" {
		req["savepointPath"] = savepoint
	}
	if len(config) > 0 {
		req["flinkConfiguration"] = config
	}
	var r struct {
		JobID string `json:"jobid"`
	}
	if err := c.doJSON(ctx, http.MethodPost, "/jars/"+jarID+"/run", req, &r); err != nil {
		return "", err
	}
	return r.JobID, nil
}

// DeleteJar removes an uploaded jar.
func (c *Client) DeleteJar(ctx context.Context, jarID string) error {
	return c.do(ctx, http.MethodDelete, "/jars/"+jarID, nil, "", nil)
}

// Detail is a job's state and the state of each of its vertices.
type Detail struct {
	State    string `json:"state"`
	Vertices []struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"vertices"`
}

// Job returns a job's detail.
func (c *Client) Job(ctx context.Context, id string) (Detail, error) {
	var d Detail
	return d, c.do(ctx, http.MethodGet, "/jobs/"+id, nil, "", &d)
}

// RootException is the job's latest exception as its chain of causes, one line each without
// stack frames ("" when none): Flink 2 lists exceptions in exceptionHistory (the root-exception
// field of Flink 1 is read when there is no history), and the cause that matters is often the
// last, beyond any length a whole stack trace could be cut to.
func (c *Client) RootException(ctx context.Context, id string) string {
	var r struct {
		Root    string `json:"root-exception"`
		History struct {
			Entries []struct {
				Stacktrace string `json:"stacktrace"`
			} `json:"entries"`
		} `json:"exceptionHistory"`
	}
	if c.do(ctx, http.MethodGet, "/jobs/"+id+"/exceptions", nil, "", &r) != nil {
		return ""
	}
	trace := r.Root
	if len(r.History.Entries) > 0 {
		trace = r.History.Entries[0].Stacktrace
	}
	return causes(trace)
}

// causes keeps a stack trace's exception lines (the first, each "Caused by:"), each cut to 300
// characters.
func causes(trace string) string {
	var out []string
	for i, line := range strings.Split(trace, "\n") {
		line = strings.TrimRight(line, "\r ")
		if after, ok := strings.CutPrefix(line, "Caused by: "); ok {
			line = "caused by: " + after
		} else if i > 0 {
			continue
		}
		if len(line) > 300 {
			line = line[:300] + " …"
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n  ")
}

// Cancel asks for a job to be canceled (no savepoint).
func (c *Client) Cancel(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPatch, "/jobs/"+id+"?mode=cancel", nil, "", nil)
}

// Savepoint triggers a savepoint into dir ("" for the cluster's default), stopping the job
// after it when stop is set, and returns the trigger id to wait on.
func (c *Client) Savepoint(ctx context.Context, id, dir string, stop bool) (string, error) {
	path, req := "/jobs/"+id+"/savepoints", map[string]any{"cancel-job": false}
	if stop {
		path, req = "/jobs/"+id+"/stop", map[string]any{"drain": false}
	}
	if dir != "" {
		req["targetDirectory"] = dir
	}
	var r struct {
		RequestID string `json:"request-id"`
	}
	if err := c.doJSON(ctx, http.MethodPost, path, req, &r); err != nil {
		return "", err
	}
	return r.RequestID, nil
}

// SavepointResult polls a savepoint trigger: done, and its location or failure.
func (c *Client) SavepointResult(ctx context.Context, id, trigger string) (done bool, location string, err error) {
	var r struct {
		Status struct {
			ID string `json:"id"`
		} `json:"status"`
		Operation struct {
			Location     string `json:"location"`
			FailureCause struct {
				Class      string `json:"class"`
				StackTrace string `json:"stack-trace"`
			} `json:"failure-cause"`
		} `json:"operation"`
	}
	if err := c.do(ctx, http.MethodGet, "/jobs/"+id+"/savepoints/"+trigger, nil, "", &r); err != nil {
		return false, "", err
	}
	if r.Status.ID != "COMPLETED" {
		return false, "", nil
	}
	if r.Operation.Location == "" {
		cause := r.Operation.FailureCause.StackTrace
		if i := strings.IndexByte(cause, '\n'); i > 0 {
			cause = cause[:i]
		}
		return true, "", fmt.Errorf("savepoint failed: %s", cause)
	}
	return true, r.Operation.Location, nil
}

func (c *Client) doJSON(ctx context.Context, method, path string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return c.do(ctx, method, path, bytes.NewReader(b), "application/json", out)
}

// do sends one request; a non-2xx answer is an error carrying Flink's own "errors" text.
func (c *Client) do(ctx context.Context, method, path string, body io.Reader, contentType string, out any) error {
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 2 * time.Minute}
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.URL, "/")+path, body)
	if err != nil {
		return err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("flink %s: %w", c.URL, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Errors []string `json:"errors"`
		}
		msg := strings.TrimSpace(string(raw))
		if json.Unmarshal(raw, &e) == nil && len(e.Errors) > 0 {
			msg = strings.Join(e.Errors, "; ")
		}
		if len(msg) > 1000 {
			msg = msg[:1000] + " …"
		}
		return fmt.Errorf("flink %s %s: HTTP %d: %s", method, path, resp.StatusCode, msg)
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("flink %s %s: unreadable answer: %w", method, path, err)
	}
	return nil
}
