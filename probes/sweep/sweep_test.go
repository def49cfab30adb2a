package sweep

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/internal/sampletest"
	"longhaul/probes/host"
	"longhaul/probes/probe"
	"longhaul/probes/probekit/golden"
	"longhaul/probes/throughput"
)

var job = probe.Job{Src: "slac-iepm", Dst: "rl-dev04", Target: "127.0.0.1", ProbeID: "sweep-rl", RunID: "r7",
	Start: time.Date(2026, 11, 21, 5, 40, 32, 0, time.UTC)}

// replay answers every iperf3 run with a captured output and every route query with lo.
func replay(t *testing.T, argvs *[][]string) probe.Exec {
	return func(_ context.Context, argv []string) ([]byte, []byte, error) {
		*argvs = append(*argvs, argv)
		if argv[0] == "ip" {
			b, err := os.ReadFile("../host/testdata/route/local-lo.txt")
			return b, nil, err
		}
		b, err := os.ReadFile("../throughput/testdata/iperf3/tcp-1stream-lo/input.json")
		return b, nil, err
	}
}

func newSweep(t *testing.T, src string, argvs *[][]string) *Probe {
	p := sampletest.MustDecode(t, src, DecodeParams)
	ex := replay(t, argvs)
	return &Probe{
		Params:  p,
		NewCell: func(tp throughput.Params) probe.Probe { return throughput.New(tp, ex) },
		Snap:    host.Snapshotter{FS: os.DirFS("../host/testdata/fs-debian12-vm"), Exec: ex, Route: true},
		Now:     time.Now,
		Sleep:   func(context.Context, time.Duration) error { return nil },
	}
}

func TestEveryCellIsAThroughputRunOfItsOwn(t *testing.T) {
	var argvs [][]string
	sw := newSweep(t, "{windows: [64K, 4M], streams: [1, 4], throughput: {duration: 5s}}", &argvs)
	ss := sw.Run(context.Background(), job)
	golden.CheckAll(t, ss)
	if ss[0].Head().Schema != sample.SchemaHost || ss[0].Head().ProbeID != "sweep-rl" {
		t.Fatalf("first sample %+v", ss[0].Head())
	}
	var summaries []string
	for _, s := range ss[1:] {
		tp := s.(*sample.Throughput)
		if tp.Record == sample.RecordSummary {
			summaries = append(summaries, tp.ProbeID+" "+tp.RunID)
		}
	}
	want := []string{"sweep-rl/w=64K,P=1 r7/w=64K,P=1", "sweep-rl/w=64K,P=4 r7/w=64K,P=4", "sweep-rl/w=4M,P=1 r7/w=4M,P=1", "sweep-rl/w=4M,P=4 r7/w=4M,P=4"}
	if strings.Join(summaries, "\n") != strings.Join(want, "\n") {
		t.Fatalf("summaries:\n%s", strings.Join(summaries, "\n"))
	}
	var iperf []string
	for _, a := range argvs {
		if a[0] == "iperf3" {
			iperf = append(iperf, strings.Join(a, " "))
		}
	}
	if len(iperf) != 4 || !strings.Contains(iperf[1], "-t 5 -P 4 --connect-timeout 10000 -w 65536") || !strings.Contains(iperf[2], "-P 1 --connect-timeout 10000 -w 4194304") {
		t.Fatalf("iperf3 runs:\n%s", strings.Join(iperf, "\n"))
	}
	if sw.Exclusive() != true || sw.Timeout() != 4*(5+10+10+2)*time.Second {
		t.Fatalf("exclusive %v timeout %v", sw.Exclusive(), sw.Timeout())
	}
}

func TestCellsPastTheDeadlineStillReport(t *testing.T) {
	var argvs [][]string
	sw := newSweep(t, "{windows: [64K, 1M, 4M]}", &argvs)
	ctx, cancel := context.WithCancel(context.Background())
	runs := 0
	inner := sw.NewCell
	sw.NewCell = func(tp throughput.Params) probe.Probe {
		runs++
		cancel() // the deadline arrives during the first cell
		return inner(tp)
	}
	ss := sw.Run(ctx, job)
	golden.CheckAll(t, ss)
	last := ss[len(ss)-1].(*sample.Throughput)
	if runs != 1 || last.Error == nil || last.Error.Class != sample.ErrNotStarted || last.ProbeID != "sweep-rl/w=4M,P=1" {
		t.Fatalf("runs %d, last %+v", runs, last)
	}
}

func TestParamsErrorsNameTheField(t *testing.T) {
	sampletest.RefusedParams(t, DecodeParams, map[string]string{
		"{}":                                             "windows: required",
		"{windows: [64K, 64K]}":                          "windows: 64K is repeated",
		"{windows: [100]}":                               "windows: 100",
		"{windows: [64KB]}":                              "windows: invalid size",
		"{windows: [64K], streams: [0]}":                 "streams: 0",
		"{windows: [64K], streams: []}":                  "streams: at least one",
		"{windows: [64K], gap: 1h}":                      "gap:",
		"{windows: [64K], throughput: {window: 1M}}":     "throughput.window: set by the sweep",
		"{windows: [64K], throughput: {duration: 1.5s}}": "throughput.duration:",
		"{windows: [64K], throughput: {bogus: 1}}":       "throughput.bogus: unknown field",
		"{windows: [1K, 2K, 4K, 8K, 16K, 32K, 64K, 128K, 256K], streams: [1, 2, 3, 4, 5, 6, 7, 8]}": "72 cells",
	})
	if _, ok := probe.Lookup(Kind); !ok {
		t.Fatal("not registered")
	}
}
