package throughput

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
	"longhaul/probes/host"
	"longhaul/probes/probe"
	"longhaul/probes/probekit/golden"
)

var job = probe.Job{Src: "longhaul-dev", Dst: "loopback", Target: "127.0.0.1", ProbeID: "tput", RunID: "run-1",
	Start: time.Date(2026, 11, 21, 5, 40, 32, 0, time.UTC)}

func params(t *testing.T, src string) Params {
	t.Helper()
	return sampletest.MustDecode(t, src, DecodeParams)
}

// fakeExec answers iperf3 with a captured output and ip with a captured route.
type fakeExec struct {
	t      *testing.T
	iperf3 string // testdata file, "" = print nothing
	stderr string
	err    error
	calls  [][]string
}

func (f *fakeExec) run(_ context.Context, argv []string) ([]byte, []byte, error) {
	f.calls = append(f.calls, argv)
	switch argv[0] {
	case "ip":
		b, err := os.ReadFile("../host/testdata/route/local-lo.txt")
		return b, nil, err
	case "iperf3":
		var out []byte
		if f.iperf3 != "" {
			var err error
			if out, err = os.ReadFile(f.iperf3); err != nil {
				f.t.Fatal(err)
			}
		}
		return out, []byte(f.stderr), f.err
	}
	f.t.Fatalf("unexpected command %q", argv)
	return nil, nil, nil
}

func newProbe(t *testing.T, p Params, f *fakeExec) *Probe {
	f.t = t
	pr := New(p, f.run)
	pr.Snap = host.Snapshotter{FS: os.DirFS("../host/testdata/fs-debian12-vm"), Exec: f.run, Route: true}
	pr.Lookup = func(context.Context, string) ([]string, error) { return nil, errors.New("no such host") }
	return pr
}

func TestDefaultParamsAndTheArgvTheyGive(t *testing.T) {
	p := params(t, "{}")
	argv, err := Argv(p, "ps1.fnal.gov")
	want := []string{"iperf3", "-c", "ps1.fnal.gov", "-J", "-p", "5201", "-t", "10", "-P", "1", "--connect-timeout", "10000"}
	if err != nil || !reflect.DeepEqual(argv, want) {
		t.Fatalf("%q %v", argv, err)
	}
	if p.Timeout() != 30*time.Second || !p.HostSnapshot {
		t.Fatalf("timeout %v snapshot %v", p.Timeout(), p.HostSnapshot)
	}
}

func TestEveryParamReachesIperf3(t *testing.T) {
	p := params(t, "{streams: 4, window: 4M, congestion: bbr, reverse: true, duration: 20s, omit: 2s, port: 5299, connect_timeout: 2500ms, bitrate: 900M}")
	argv, _ := Argv(p, "2001:db8::1")
	want := []string{"iperf3", "-c", "2001:db8::1", "-J", "-p", "5299", "-t", "20", "-P", "4", "-O", "2",
		"--connect-timeout", "2500", "-b", "900000000", "-w", "4194304", "-C", "bbr", "-R"}
	if !reflect.DeepEqual(argv, want) {
		t.Fatalf("%q", argv)
	}
	if p.Timeout() != 34500*time.Millisecond {
		t.Fatalf("timeout %v", p.Timeout())
	}
	udp := params(t, "{protocol: udp, window: 64K}")
	argv, _ = Argv(udp, "10.0.0.1")
	if strings.Join(argv, " ") != "iperf3 -c 10.0.0.1 -J -p 5201 -t 10 -P 1 --connect-timeout 10000 -u -b 1000000 -w 65536" {
		t.Fatalf("udp: %q", argv)
	}
}

func TestParamsErrorsNameTheField(t *testing.T) {
	sampletest.RefusedParams(t, DecodeParams, map[string]string{
		"{protocol: sctp}":                 "protocol:",
		"{streams: 0}":                     "streams:",
		"{streams: 129}":                   "streams:",
		"{window: 64KB}":                   "window: invalid size",
		"{window: 512}":                    "window: 512 bytes",
		"{duration: 10}":                   "duration: invalid duration",
		"{duration: 1500ms}":               "duration: 1.5s is not whole seconds",
		"{omit: 1h}":                       "omit:",
		"{port: 0}":                        "port:",
		"{congestion: 'bbr;reboot'}":       "congestion:",
		"{protocol: udp, congestion: bbr}": "congestion: only applies to protocol tcp",
		"{bitrate: fast}":                  "bitrate: invalid rate",
		"{connect_timeout: 1500us}":        "connect_timeout:",
		"{host_snapshots: false}":          "host_snapshots: unknown field",
	})
}

func TestTargetThatLooksLikeAnOptionIsNeverRun(t *testing.T) {
	f := &fakeExec{}
	pr := newProbe(t, params(t, "{host_snapshot: false}"), f)
	j := job
	j.Target = "-R"
	ss := pr.Run(context.Background(), j)
	if len(f.calls) != 0 || len(ss) != 1 || ss[0].(*sample.Throughput).Error.Class != sample.ErrNotStarted {
		t.Fatalf("calls %q samples %v", f.calls, ss)
	}
	golden.CheckAll(t, ss)
}

func TestRunPublishesHostSnapshotIntervalsAndOneSummary(t *testing.T) {
	f := &fakeExec{iperf3: "testdata/iperf3/tcp-1stream-lo/input.json"}
	ss := newProbe(t, params(t, "{}"), f).Run(context.Background(), job)
	golden.CheckAll(t, ss)
	if len(ss) != 5 || ss[0].Head().Schema != sample.SchemaHost || *ss[0].(*sample.Host).RunID != "run-1" {
		t.Fatalf("%d samples, first %s", len(ss), ss[0].Head().Schema)
	}
	sum := ss[4].(*sample.Throughput)
	if sum.Record != sample.RecordSummary || sum.Error != nil || *sum.BitsPerSecond != 17250509992.418064 || sum.RunID != "run-1" {
		t.Fatalf("%+v", sum)
	}
	if !reflect.DeepEqual(f.calls[0], []string{"ip", "-o", "route", "get", "127.0.0.1"}) || f.calls[1][0] != "iperf3" {
		t.Fatalf("snapshot first, then the test: %q", f.calls)
	}
}

func TestFailedRunsStillYieldOneSummaryWithTheErrorClass(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cases := []struct {
		name   string
		ctx    context.Context
		f      *fakeExec
		target string
		class  sample.ErrorClass
	}{
		{"tool missing", context.Background(), &fakeExec{err: &exec.Error{Name: "iperf3", Err: exec.ErrNotFound}}, "", sample.ErrToolMissing},
		{"killed at the deadline", expired, &fakeExec{err: errors.New("signal: killed")}, "", sample.ErrTimeout},
		// stopped at the deadline, iperf3 prints its JSON: without a cookie the server never answered
		{"stopped at the deadline before the server answered", expired, &fakeExec{iperf3: "testdata/iperf3/syn-dropped-sigterm-lo/input.json", err: errors.New("exit status 1")}, "", sample.ErrTimeout},
		// with one it did (a lost UDP setup datagram, esnet/iperf#351): not a reachability class
		{"stopped at the deadline after the server answered", expired, &fakeExec{iperf3: "testdata/iperf3/udp-setup-datagram-dropped-sigterm-lo/input.json", err: errors.New("exit status 1")}, "", sample.ErrOther},
		{"refused, exit 1", context.Background(), &fakeExec{iperf3: "testdata/iperf3/connection-refused-lo/input.json", err: errors.New("exit status 1")}, "", sample.ErrConnectionRefused},
		{"garbage on stdout", context.Background(), &fakeExec{iperf3: "../rtt/testdata/ping/loopback-5/input.txt"}, "", sample.ErrToolFailed},
		{"stderr only", context.Background(), &fakeExec{stderr: "iperf3: error - the server is busy running a test. try again later", err: errors.New("exit status 1")}, "", sample.ErrServerBusy},
		{"name that does not resolve", context.Background(), &fakeExec{iperf3: "testdata/iperf3/name-resolution-failure-netns/input.json"}, "nosuchhost.invalid", sample.ErrDNS},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := job
			if c.target != "" {
				j.Target = c.target
			}
			ss := newProbe(t, params(t, "{host_snapshot: false}"), c.f).Run(c.ctx, j)
			golden.CheckAll(t, ss)
			sum := ss[len(ss)-1].(*sample.Throughput)
			if sum.Record != sample.RecordSummary || sum.Error == nil || sum.Error.Class != c.class {
				t.Fatalf("%+v %+v", sum, sum.Error)
			}
			if sum.TS != job.Start.UnixMilli() && c.name != "refused, exit 1" {
				t.Fatalf("ts %d", sum.TS)
			}
		})
	}
}

func TestFactoryIsRegisteredAndExclusive(t *testing.T) {
	f, ok := probe.Lookup(Kind)
	if !ok {
		t.Fatal("not registered")
	}
	pr, err := f(nil, (&fakeExec{t: t}).run)
	if err != nil || !pr.Exclusive() || pr.Timeout() != 30*time.Second {
		t.Fatalf("%v %v", pr, err)
	}
	if _, err := f(sampletest.Node(t, "{streams: many}"), nil); err == nil || !strings.HasPrefix(err.Error(), "streams:") {
		t.Fatalf("%v", err)
	}
}
