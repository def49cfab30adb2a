package rtt

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/internal/sampletest"
	"longhaul/probes/probe"
	"longhaul/probes/probekit/golden"
)

var job = probe.Job{Src: "lh-a", Dst: "lh-c", Target: "10.95.0.2", ProbeID: "rtt", RunID: "run-1",
	Start: time.Date(2026, 11, 21, 5, 50, 29, 0, time.UTC)}

func TestDefaultArgvAndTimeout(t *testing.T) {
	p, err := DecodeParams(nil)
	if err != nil {
		t.Fatal(err)
	}
	argv, _ := Argv(p, "10.95.0.2")
	if !reflect.DeepEqual(argv, []string{"ping", "-n", "-c", "10", "-i", "1", "-W", "2", "-s", "56", "10.95.0.2"}) {
		t.Fatalf("%q", argv)
	}
	if p.RunTimeout() != 22*time.Second {
		t.Fatalf("%v", p.RunTimeout())
	}
	p = sampletest.MustDecode(t, "{count: 20, interval: 200ms, timeout: 5s, size: 1400}", DecodeParams)
	argv, _ = Argv(p, "ps1.fnal.gov")
	if strings.Join(argv, " ") != "ping -n -c 20 -i 0.2 -W 5 -s 1400 ps1.fnal.gov" {
		t.Fatalf("%q", argv)
	}
	if _, err := Argv(p, "-f"); err == nil {
		t.Fatal("flood option accepted as a target")
	}
}

func TestParamsErrorsNameTheField(t *testing.T) {
	sampletest.RefusedParams(t, DecodeParams, map[string]string{
		"{count: 0}":        "count:",
		"{interval: 10ms}":  "interval:",
		"{interval: 1}":     "interval: invalid duration",
		"{timeout: 1500ms}": "timeout:",
		"{size: 70000}":     "size:",
		"{deadline: 10s}":   "deadline: unknown field",
	})
}

func execOf(t *testing.T, stdoutFile, stderr string, err error) probe.Exec {
	return func(_ context.Context, argv []string) ([]byte, []byte, error) {
		if argv[0] != "ping" {
			t.Fatalf("%q", argv)
		}
		var out []byte
		if stdoutFile != "" {
			out, _ = os.ReadFile(stdoutFile)
		}
		return out, []byte(stderr), err
	}
}

func TestRunOnCapturedOutputs(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	for _, c := range []struct {
		name     string
		ctx      context.Context
		ex       probe.Exec
		received int64
		loss     float64
		class    sample.ErrorClass
	}{
		{"45% loss is a measurement, exit 1 or not", context.Background(), execOf(t, "testdata/ping/netns-tbf-45pct-loss-pipe/input.txt", "", errors.New("exit status 1")), 11, 45, ""},
		{"all lost is a measurement", context.Background(), execOf(t, "testdata/ping/netns-blackhole-100pct-loss/input.txt", "", errors.New("exit status 1")), 0, 100, ""},
		{"stderr says why", context.Background(), execOf(t, "", "ping: connect: Network is unreachable\n", errors.New("exit status 2")), 0, 100, sample.ErrNoRoute},
		{"tool missing", context.Background(), execOf(t, "", "", &exec.Error{Name: "ping", Err: exec.ErrNotFound}), 0, 100, sample.ErrToolMissing},
		{"killed at the deadline", expired, execOf(t, "", "", errors.New("signal: killed")), 0, 100, sample.ErrTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := Factory(nil, c.ex)
			if err != nil {
				t.Fatal(err)
			}
			ss := pr.Run(c.ctx, job)
			golden.CheckAll(t, ss)
			r := ss[0].(*sample.RTT)
			if len(ss) != 1 || r.Received != c.received || r.LossPercent != c.loss || *r.IntervalS != 1 || r.TS != job.Start.UnixMilli() {
				t.Fatalf("%+v", r)
			}
			if (c.class == "" && r.Error != nil) || (c.class != "" && (r.Error == nil || r.Error.Class != c.class)) {
				t.Fatalf("error %+v, want %q", r.Error, c.class)
			}
		})
	}
}

func TestRegistered(t *testing.T) {
	f, ok := probe.Lookup(Kind)
	if !ok {
		t.Fatal("not registered")
	}
	pr, _ := f(nil, nil)
	if pr.Exclusive() || pr.Timeout() != 22*time.Second {
		t.Fatal(pr.Exclusive(), pr.Timeout())
	}
}
