//go:build integration

package all

import (
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/internal/sampletest"
	"longhaul/probes/probe"
	"longhaul/probes/probekit/golden"
)

// The probes with the real tools (scripts/prereqs.sh installs them) against 127.0.0.1 only.

func systemExec(ctx context.Context, argv []string) ([]byte, []byte, error) {
	var out, errb []byte
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	o, err := cmd.Output()
	out = o
	if ee, ok := err.(*exec.ExitError); ok {
		errb = ee.Stderr
	}
	return out, errb, err
}

func build(t *testing.T, kind, params string) probe.Probe {
	t.Helper()
	f, _ := probe.Lookup(kind)
	p, err := f(sampletest.Node(t, params), systemExec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func runProbe(t *testing.T, p probe.Probe, kind string) []sample.Sample {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), p.Timeout())
	defer cancel()
	ss := p.Run(ctx, probe.Job{Src: "longhaul-dev", Dst: "loopback", Target: "127.0.0.1", ProbeID: kind, RunID: kind + "-1", Start: time.Now()})
	golden.CheckAll(t, ss)
	for _, s := range ss {
		b, _ := json.Marshal(s)
		t.Logf("%s", b)
	}
	return ss
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestIntegrationThroughputAgainstARealIperf3Server(t *testing.T) {
	port := freePort(t)
	srv := exec.Command("iperf3", "-s", "-1", "-B", "127.0.0.1", "-p", strconv.Itoa(port))
	if err := srv.Start(); err != nil {
		t.Fatalf("iperf3 server: %v (scripts/prereqs.sh installs iperf3)", err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	time.Sleep(300 * time.Millisecond)
	ss := runProbe(t, build(t, "throughput", "{duration: 2s, streams: 2, port: "+strconv.Itoa(port)+"}"), "throughput")
	sum := ss[len(ss)-1].(*sample.Throughput)
	if ss[0].Head().Schema != sample.SchemaHost || sum.Record != sample.RecordSummary || sum.Error != nil || *sum.BitsPerSecond <= 0 || *sum.Streams != 2 {
		t.Fatalf("summary %+v", sum)
	}
	// The one-off server has gone: the same probe now meets a closed port.
	ss = runProbe(t, build(t, "throughput", "{duration: 1s, host_snapshot: false, port: "+strconv.Itoa(port)+"}"), "throughput")
	if e := ss[0].(*sample.Throughput).Error; len(ss) != 1 || e == nil || e.Class != sample.ErrConnectionRefused {
		t.Fatalf("closed port: %+v", ss)
	}
}

func TestIntegrationPathRTTAndHostOnLoopback(t *testing.T) {
	p := runProbe(t, build(t, "path", "{max_ttl: 3, wait: 1s}"), "path")[0].(*sample.Path)
	if !p.Reached || p.Error != nil || len(p.Hops) != 1 {
		t.Fatalf("path %+v", p)
	}
	r := runProbe(t, build(t, "rtt", "{count: 3, interval: 200ms}"), "rtt")[0].(*sample.RTT)
	if r.Received != 3 || r.LossPercent != 0 || r.AvgMs == nil {
		t.Fatalf("rtt %+v", r)
	}
	h := runProbe(t, build(t, "host", "{}"), "host")[0].(*sample.Host)
	if h.Interface == nil || *h.Interface != "lo" || h.CongestionControl == "" {
		t.Fatalf("host %+v", h)
	}
}
