package flink

import (
	"context"
	"strings"
	"testing"
)

// Answers of a Flink 2.2.1 JobManager (the cluster stack, 2026-11-25), trimmed to two vertices:
// a source chain without a window, and the job's 1-minute windows at parallelism 2.
var lateAnswers = map[string]string{
	"/jobs/26ec": `{"jid":"26ec","name":"longhaul-kclaf631e","state":"RUNNING","vertices":[
		{"id":"ffb7","name":"Source: source: raw throughput -> drop replayed: throughput","parallelism":2,"status":"RUNNING"},
		{"id":"24a3","name":"stats: 1m windows","parallelism":2,"status":"RUNNING"}]}`,
	"/jobs/26ec/vertices/ffb7/subtasks/metrics": `[{"id":"numRecordsOut"},{"id":"busyTimeMsPerSecond"}]`,
	"/jobs/26ec/vertices/24a3/subtasks/metrics": `[{"id":"mailboxLatencyMs_p999"},{"id":"stats__1m_windows.currentOutputWatermark"},
		{"id":"stats__1m_windows.numLateRecordsDropped"},{"id":"currentInputWatermark"}]`,
}

func lateServer(t *testing.T, dropped string) *Client {
	return cannedServer(t, lateAnswers, func(path, get string) (string, bool) {
		return `[{"id":"stats__1m_windows.numLateRecordsDropped","min":0.0,"max":` + dropped + `,"avg":1.0,"sum":` + dropped + `,"skew":0.0}]`,
			path == "/jobs/26ec/vertices/24a3/subtasks/metrics" && get == "stats__1m_windows.numLateRecordsDropped"
	})
}

func TestLateMetricsAreFoundWhereverAWindowCountsThem(t *testing.T) {
	c := lateServer(t, "37.0")
	where, err := c.FindLateMetrics(context.Background(), "26ec")
	if err != nil {
		t.Fatal(err)
	}
	if len(where) != 1 || strings.Join(where["24a3"], ",") != "stats__1m_windows.numLateRecordsDropped" {
		t.Fatalf("%v", where)
	}
	n, err := c.LateDropped(context.Background(), "26ec", where)
	if err != nil || n != 37 {
		t.Fatalf("%d %v", n, err)
	}
}

func TestLateMetricsOfAnUnknownJobOrVertexAreAnError(t *testing.T) {
	c := lateServer(t, "0")
	if _, err := c.FindLateMetrics(context.Background(), "nope"); err == nil {
		t.Fatal("an unknown job gave no error")
	}
	if _, err := c.LateDropped(context.Background(), "26ec", LateMetrics{"gone": {"x.numLateRecordsDropped"}}); err == nil {
		t.Fatal("a vanished vertex gave no error")
	}
}
