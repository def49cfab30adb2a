package flink

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// restCluster answers the REST calls of the lifecycle the way a Flink 2.2 JobManager does,
// over a real socket, and records what it was asked.
type restCluster struct {
	mu       sync.Mutex
	jobs     []Job
	runArgs  []string
	restored string
	config   map[string]string
	tms      int // TaskManagers registered (/overview)
	canceled []string
	deleted  []string
	failRun  bool
	// restartRun: the job fails on start and Flink restarts it (RESTARTING), its exception in
	// Flink 2's exceptionHistory
	restartRun bool
}

func (rc *restCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && p == "/overview":
		json.NewEncoder(w).Encode(map[string]any{"taskmanagers": rc.tms})
	case r.Method == http.MethodGet && p == "/jobs/overview":
		json.NewEncoder(w).Encode(map[string]any{"jobs": rc.jobs})
	case r.Method == http.MethodPost && p == "/jars/upload":
		if _, _, err := r.FormFile("jarfile"); err != nil {
			http.Error(w, `{"errors":["no jarfile"]}`, 400)
			return
		}
		io.WriteString(w, `{"filename":"/tmp/flink-web/upload/abc_job.jar","status":"success"}`)
	case r.Method == http.MethodPost && p == "/jars/abc_job.jar/run":
		var req struct {
			Args      []string          `json:"programArgsList"`
			Savepoint string            `json:"savepointPath"`
			Config    map[string]string `json:"flinkConfiguration"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		rc.runArgs, rc.restored, rc.config = req.Args, req.Savepoint, req.Config
		state := "RUNNING"
		if rc.failRun {
			state = "FAILED"
		}
		if rc.restartRun {
			state = "RESTARTING"
		}
		rc.jobs = append(rc.jobs, Job{ID: "j2", Name: req.Args[1], State: state})
		io.WriteString(w, `{"jobid":"j2"}`)
	case r.Method == http.MethodDelete && strings.HasPrefix(p, "/jars/"):
		rc.deleted = append(rc.deleted, p)
	case r.Method == http.MethodGet && p == "/jobs/j2/exceptions" && rc.restartRun:
		json.NewEncoder(w).Encode(map[string]any{"exceptionHistory": map[string]any{"entries": []map[string]string{{
			"stacktrace": "org.apache.flink.util.FlinkException: Global failure triggered by OperatorCoordinator for 'Source: raw rtt'.\n" +
				"\tat org.apache.flink.runtime.Foo.bar(Foo.java:1)\n" +
				"Caused by: java.lang.RuntimeException: Failed to get metadata for topics [longhaul.raw.rtt].\n\t... 3 more\n" +
				"Caused by: org.apache.kafka.common.errors.SaslAuthenticationException: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512\n"}}}})
	case r.Method == http.MethodGet && p == "/jobs/j2/exceptions":
		io.WriteString(w, `{"root-exception":"java.lang.IllegalArgumentException: --collapse.drop: not a number"}`)
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/jobs/"):
		id := strings.TrimPrefix(p, "/jobs/")
		for _, j := range rc.jobs {
			if j.ID == id {
				json.NewEncoder(w).Encode(map[string]any{"state": j.State,
					"vertices": []map[string]string{{"name": "source", "status": j.State}}})
				return
			}
		}
		http.Error(w, `{"errors":["Job not found"]}`, 404)
	case r.Method == http.MethodPatch && strings.HasPrefix(p, "/jobs/"):
		id := strings.TrimPrefix(p, "/jobs/")
		rc.canceled = append(rc.canceled, id)
		for i := range rc.jobs {
			if rc.jobs[i].ID == id {
				rc.jobs[i].State = "CANCELED"
			}
		}
		w.WriteHeader(202)
	default:
		http.Error(w, `{"errors":["Not found: `+p+`"]}`, 404)
	}
}

func jar(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "job.jar")
	if err := os.WriteFile(p, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSubmitKeepsARunningJobOfTheSameName(t *testing.T) {
	rc := &restCluster{jobs: []Job{{ID: "j1", Name: "longhaul-demo", State: "RUNNING"}}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	id, started, err := (&Client{URL: srv.URL}).Submit(context.Background(), Submission{Name: "longhaul-demo", Jar: jar(t), Wait: 5 * time.Second})
	if err != nil || started || id != "j1" || rc.runArgs != nil {
		t.Fatalf("id %s started %v err %v args %v", id, started, err, rc.runArgs)
	}
}

func TestSubmitReplacesRestoresAndNamesGroupAndTransactionsAfterTheJob(t *testing.T) {
	rc := &restCluster{jobs: []Job{{ID: "j1", Name: "longhaul-demo", State: "RUNNING"}}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	id, started, err := (&Client{URL: srv.URL}).Submit(context.Background(), Submission{Name: "longhaul-demo", Jar: jar(t),
		Args: []string{"--kafka", "127.0.0.1:9092"}, Savepoint: "file:///data/sp-1", Replace: true, Wait: 5 * time.Second})
	if err != nil || !started || id != "j2" {
		t.Fatalf("id %s started %v err %v", id, started, err)
	}
	if got := strings.Join(rc.runArgs, " "); got != "--job-name longhaul-demo --transactional-id-prefix longhaul-demo --group-id longhaul-demo --kafka 127.0.0.1:9092" {
		t.Fatalf("args: %s", got)
	}
	if rc.restored != "file:///data/sp-1" || len(rc.canceled) != 1 || rc.canceled[0] != "j1" || len(rc.deleted) != 1 {
		t.Fatalf("restored %q canceled %v deleted %v", rc.restored, rc.canceled, rc.deleted)
	}
}

func TestAJobThatFailsOnStartIsReportedWithItsRootException(t *testing.T) {
	rc := &restCluster{failRun: true}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	_, _, err := (&Client{URL: srv.URL}).Submit(context.Background(), Submission{Name: "x", Jar: jar(t), Wait: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "FAILED") || !strings.Contains(err.Error(), "--collapse.drop") {
		t.Fatalf("err = %v", err)
	}
}

func TestAJobThatRestartsOnStartIsReportedAtOnceWithItsCauses(t *testing.T) {
	rc := &restCluster{restartRun: true}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	start := time.Now()
	_, _, err := (&Client{URL: srv.URL}).Submit(context.Background(), Submission{Name: "x", Jar: jar(t), Wait: 5 * time.Second})
	want := "job j2 failed on start and is RESTARTING (Flink retries it until it is canceled): " +
		"org.apache.flink.util.FlinkException: Global failure triggered by OperatorCoordinator for 'Source: raw rtt'.\n" +
		"  caused by: java.lang.RuntimeException: Failed to get metadata for topics [longhaul.raw.rtt].\n" +
		"  caused by: org.apache.kafka.common.errors.SaslAuthenticationException: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"
	if err == nil || err.Error() != want || time.Since(start) > 2*time.Second {
		t.Fatalf("after %s: %v\nwant %s", time.Since(start), err, want)
	}
}

func TestRestErrorsCarryFlinksOwnMessage(t *testing.T) {
	srv := httptest.NewServer(&restCluster{})
	defer srv.Close()
	_, err := (&Client{URL: srv.URL}).Job(context.Background(), "nope")
	if err == nil || !strings.Contains(err.Error(), "HTTP 404: Job not found") {
		t.Fatalf("err = %v", err)
	}
}
