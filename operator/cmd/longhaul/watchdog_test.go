package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"longhaul/internal/kafkaadmin"
	"longhaul/operator/watchdog"
)

func TestWatchdogStatusSaysWhenMonitoringIsOffStaleOrDegraded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status.json")
	status := func() (int, string) {
		var out, errb strings.Builder
		code := dispatch([]string{"watchdog", "status", "--status-file", path}, nil, &out, &errb)
		return code, out.String() + errb.String()
	}
	if code, out := status(); code != 1 || !strings.Contains(out, "NOT RUNNING: no status file at "+path) {
		t.Fatalf("no file: %d %q", code, out)
	}
	st := watchdog.Status{Written: time.Now().UnixMilli(), Interval: 15, Job: "longhaul-link-monitor",
		States: []watchdog.ComponentState{{Component: "flink_job", Subject: "*", State: watchdog.StateHealthy, Message: "RUNNING, 18/18 tasks"}}}
	watchdog.WriteStatus(path, st)
	if code, out := status(); code != 0 || !strings.Contains(out, "pipeline healthy") || !strings.Contains(out, "18/18") {
		t.Fatalf("healthy: %d %q", code, out)
	}
	st.States[0].State = watchdog.StateDegraded
	watchdog.WriteStatus(path, st)
	if code, out := status(); code != 1 || !strings.Contains(out, "DEGRADED") {
		t.Fatalf("degraded: %d %q", code, out)
	}
	st.States[0].State, st.Written = watchdog.StateHealthy, time.Now().Add(-time.Hour).UnixMilli()
	watchdog.WriteStatus(path, st)
	if code, out := status(); code != 1 || !strings.Contains(out, "WATCHDOG STOPPED") {
		t.Fatalf("stale: %d %q", code, out)
	}
	var out, errb strings.Builder
	if code := dispatch([]string{"watchdog", "status", "--status-file", path, "--json"}, nil, &out, &errb); code != 1 || !strings.Contains(out.String(), `"schema": "watchdog_status"`) {
		t.Fatalf("json: %d %q", code, out.String())
	}
}

func TestWatchdogRefusesBadThresholds(t *testing.T) {
	var out, errb strings.Builder
	if code := dispatch([]string{"watchdog", "--interval", "0s"}, nil, &out, &errb); code != 2 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

// On a native stack host the watchdog is the watchdog user unless the environment names another.
func TestTheWatchdogsIdentityDefaultsToItsOwnOnAStackHost(t *testing.T) {
	stack := t.TempDir()
	secrets := filepath.Join(stack, "run", "secrets")
	os.MkdirAll(secrets, 0o700)
	os.WriteFile(filepath.Join(secrets, "kafka-watchdog.password"), []byte("pw"), 0o600)
	os.WriteFile(filepath.Join(secrets, "kafka-operator.password"), []byte("op"), 0o600)
	t.Setenv("LONGHAUL_STACK_DIR", stack)
	t.Setenv("LONGHAUL_SECRETS_DIR", "")
	t.Setenv("LONGHAUL_KAFKA_USER", "")
	t.Setenv("LONGHAUL_KAFKA_PASSWORD_FILE", "")
	t.Setenv("LONGHAUL_KAFKA_SECURITY", "sasl_ssl")
	c, err := serviceConn("127.0.0.1:9092", kafkaadmin.Watchdog)
	if err != nil || c.User != "watchdog" {
		t.Fatalf("%+v %v", c, err)
	}
	t.Setenv("LONGHAUL_KAFKA_USER", "operator")
	t.Setenv("LONGHAUL_KAFKA_PASSWORD_FILE", filepath.Join(secrets, "kafka-operator.password"))
	if c, err := serviceConn("127.0.0.1:9092", kafkaadmin.Watchdog); err != nil || c.User != "operator" {
		t.Fatalf("the environment does not win: %+v %v", c, err)
	}
}
