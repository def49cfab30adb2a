package flink

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Answers of a Flink 2.2.1 JobManager, trimmed, as the stack's cluster gave them.
var healthAnswers = map[string]string{
	"/jobs/overview": `{"jobs":[{"jid":"2b3f","name":"longhaul-wd-probe","start-time":1795466888334,"end-time":-1,
		"duration":10864,"state":"RUNNING","last-modification":1795466897994,
		"tasks":{"running":0,"canceling":0,"canceled":0,"total":18,"created":0,"scheduled":18,"deploying":0,
		"reconciling":0,"finished":0,"initializing":0,"failed":0},"pending-operators":0}]}`,
	"/jobs/2b3f/metrics": `[{"id":"numRestarts","value":"4"}]`,
	"/jobs/2b3f/checkpoints": `{"counts":{"restored":0,"total":5,"in_progress":0,"completed":3,"failed":2},
		"latest":{"completed":{"className":"completed","id":3,"status":"COMPLETED","trigger_timestamp":1795466908970,
		"latest_ack_timestamp":1795466909273},"savepoint":null,
		"failed":{"id":5,"status":"FAILED","trigger_timestamp":1795466918970,"failure_timestamp":1795466919000,
		"failure_message":"Checkpoint expired before completing."},"restored":null}}`,
	"/jobs/2b3f/checkpoints/config": `{"mode":"exactly_once","interval":5000,"timeout":600000}`,
}

func healthServer(t *testing.T) *Client {
	return cannedServer(t, healthAnswers, func(path, get string) (string, bool) {
		return healthAnswers[path], path == "/jobs/2b3f/metrics" && get == "numRestarts"
	})
}

// cannedServer is a JobManager answering each path with its canned body; a metrics request
// (?get=...) is answered by metric, and refused (400) where it says no, so a wrong metric name
// fails the test instead of reading a canned answer.
func cannedServer(t *testing.T, answers map[string]string, metric func(path, get string) (string, bool)) *Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if get := r.URL.Query().Get("get"); get != "" {
			body, ok := metric(r.URL.Path, get)
			if !ok {
				http.Error(w, "wrong metric "+get, 400)
				return
			}
			io.WriteString(w, body)
			return
		}
		body, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return &Client{URL: srv.URL}
}

func TestOverviewReadsEachJobsTasks(t *testing.T) {
	jobs, err := healthServer(t).Overview(context.Background())
	if err != nil || len(jobs) != 1 {
		t.Fatalf("%v %v", jobs, err)
	}
	j := jobs[0]
	if j.Name != "longhaul-wd-probe" || j.State != "RUNNING" || j.Tasks.Total != 18 || j.Tasks.Running != 0 || j.End != -1 {
		t.Fatalf("%+v", j)
	}
}

func TestRestartsReadsTheMetric(t *testing.T) {
	n, err := healthServer(t).Restarts(context.Background(), "2b3f")
	if err != nil || n != 4 {
		t.Fatalf("%d %v", n, err)
	}
	if _, err := healthServer(t).Restarts(context.Background(), "nope"); err == nil {
		t.Fatal("an unknown job gave restarts")
	}
}

func TestCheckpointsReadCountsLatestAndInterval(t *testing.T) {
	cp, err := healthServer(t).Checkpoints(context.Background(), "2b3f")
	if err != nil {
		t.Fatal(err)
	}
	if cp.Counts.Failed != 2 || cp.Counts.Completed != 3 || cp.Interval != 5*time.Second {
		t.Fatalf("%+v", cp)
	}
	if cp.Latest.Completed == nil || cp.Latest.Completed.LatestAck != 1795466909273 {
		t.Fatalf("completed %+v", cp.Latest.Completed)
	}
	if f := cp.Latest.Failed; f == nil || f.FailureTime != 1795466919000 || f.FailureMessage == "" {
		t.Fatalf("failed %+v", f)
	}
}
