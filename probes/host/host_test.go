package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
	"longhaul/probes/probekit/golden"
)

// testdata/fs-debian12-vm holds the real sysctls and MTUs of the machine the captures were
// made on (Debian 12, kernel 6.18); testdata/route holds real `ip -o route get` outputs.
var vmFS = os.DirFS("testdata/fs-debian12-vm")

func routeExec(t *testing.T, file string, wantAddr string) probe.Exec {
	return func(_ context.Context, argv []string) ([]byte, []byte, error) {
		if !reflect.DeepEqual(argv, RouteArgv(wantAddr)) {
			t.Errorf("argv %q", argv)
		}
		b, err := os.ReadFile("testdata/route/" + file)
		return b, nil, err
	}
}

func TestReadTuningOfTheCaptureHost(t *testing.T) {
	tu, err := ReadTuning(vmFS)
	if err != nil {
		t.Fatal(err)
	}
	want := Tuning{Rmem: [3]int64{4096, 131072, 33554432}, Wmem: [3]int64{4096, 16384, 4194304}, RmemMax: 4194304, WmemMax: 4194304,
		Congestion: "bbr", AvailableCongCtrl: []string{"reno", "bbr", "cubic"}}
	on := true
	want.WindowScaling = &on
	if !reflect.DeepEqual(*tu, want) {
		t.Fatalf("got %+v\nwant %+v", *tu, want)
	}
}

func TestSnapshotNamesTheEgressInterfaceAndItsMTU(t *testing.T) {
	s := Snapshotter{FS: vmFS, Exec: routeExec(t, "via-gateway-netns.txt", "10.95.0.2"), Route: true}
	m := probekit.Meta{Src: "lh-a", Dst: "lh-c", ProbeID: "tput", RunID: "r1", Target: "10.95.0.2"}
	run := "r1"
	h, err := s.Take(context.Background(), m, 1795239832000, &run)
	if err != nil {
		t.Fatal(err)
	}
	if h.Interface == nil || *h.Interface != "lhvA" || h.MTU == nil || *h.MTU != 1500 || *h.RunID != "r1" {
		t.Fatalf("%+v", h)
	}
	b, _ := json.Marshal(h)
	if err := golden.Schemas(t).Validate(b); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}

func TestSnapshotResolvesANameBeforeAskingTheRoute(t *testing.T) {
	s := Snapshotter{FS: vmFS, Exec: routeExec(t, "local-lo.txt", "127.0.0.1"), Route: true,
		Lookup: func(context.Context, string) ([]string, error) { return []string{"127.0.0.1"}, nil }}
	h, err := s.Take(context.Background(), probekit.Meta{Src: "a", Dst: "b", ProbeID: "p", RunID: "r", Target: "localhost"}, 1795239832000, nil)
	if err != nil || *h.Interface != "lo" || *h.MTU != 65536 || h.RunID != nil {
		t.Fatalf("%+v %v", h, err)
	}
}

func TestSnapshotWithoutARouteStillCarriesTheTuning(t *testing.T) {
	failing := func(context.Context, []string) ([]byte, []byte, error) {
		return nil, []byte("RTNETLINK answers: No route to host\n"), errors.New("exit status 2")
	}
	s := Snapshotter{FS: vmFS, Exec: failing, Route: true}
	h, err := s.Take(context.Background(), probekit.Meta{Src: "a", Dst: "b", ProbeID: "p", RunID: "r", Target: "10.98.0.5"}, 1795239832000, nil)
	if err != nil || h.Interface != nil || h.MTU != nil || h.CongestionControl != "bbr" {
		t.Fatalf("%+v %v", h, err)
	}
}

func TestParseRouteGetOnRealOutputs(t *testing.T) {
	for file, want := range map[string]string{"local-lo.txt": "lo", "via-gateway-netns.txt": "lhvA", "direct-netns.txt": "lhvA", "local-v6-lo.txt": "lo"} {
		b, _ := os.ReadFile("testdata/route/" + file)
		if got, err := ParseRouteGet(b); err != nil || got != want {
			t.Errorf("%s: %q %v", file, got, err)
		}
	}
	for _, bad := range []string{"10.0.0.1 dev ../../etc src x", "RTNETLINK answers: No route to host", "x dev"} {
		if _, err := ParseRouteGet([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestReadTuningRefusesMissingOrMalformedSysctls(t *testing.T) {
	base := fstest.MapFS{}
	for _, p := range []string{pathRmem, pathWmem, pathRmemMax, pathWmemMax, pathCC} {
		b, _ := os.ReadFile("testdata/fs-debian12-vm/" + p)
		base[p] = &fstest.MapFile{Data: b}
	}
	if tu, err := ReadTuning(base); err != nil || tu.WindowScaling != nil || tu.AvailableCongCtrl != nil {
		t.Fatalf("optional sysctls: %+v %v", tu, err)
	}
	for path, data := range map[string]string{pathRmem: "4096 87380\n", pathRmemMax: "-1\n", pathCC: "\n", pathWmem: "a b c\n"} {
		fs := fstest.MapFS{}
		for k, v := range base {
			fs[k] = v
		}
		fs[path] = &fstest.MapFile{Data: []byte(data)}
		if _, err := ReadTuning(fs); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s=%q: %v", path, data, err)
		}
	}
	delete(base, pathWmemMax)
	if _, err := ReadTuning(base); err == nil {
		t.Fatal("missing wmem_max accepted")
	}
}

func TestFactoryDefaultsAndUnknownField(t *testing.T) {
	pr, err := Factory(nil, nil)
	if err != nil || !pr.(*Probe).Snap.Route || pr.Exclusive() {
		t.Fatalf("%v %v", pr, err)
	}
	var n yaml.Node
	_ = yaml.Unmarshal([]byte("route: false"), &n)
	if pr, err := Factory(&n, nil); err != nil || pr.(*Probe).Snap.Route {
		t.Fatalf("route false: %v", err)
	}
	_ = yaml.Unmarshal([]byte("routes: false"), &n)
	if _, err := Factory(&n, nil); err == nil || !strings.Contains(err.Error(), "routes: unknown field") {
		t.Fatalf("unknown field: %v", err)
	}
}

func TestProbeRunYieldsOneValidSnapshot(t *testing.T) {
	p := &Probe{Snap: Snapshotter{FS: vmFS, Exec: routeExec(t, "local-lo.txt", "127.0.0.1"), Route: true}}
	ss := p.Run(context.Background(), probe.Job{Src: "longhaul-dev", Dst: "loopback", ProbeID: "host", RunID: "r", Target: "127.0.0.1"})
	if len(ss) != 1 || ss[0].Head().Schema != sample.SchemaHost {
		t.Fatalf("%v", ss)
	}
	golden.CheckAll(t, ss)
	p.Snap.FS = fstest.MapFS{}
	if ss := p.Run(context.Background(), probe.Job{Src: "a", Dst: "b", ProbeID: "h", RunID: "r"}); len(ss) != 0 {
		t.Fatalf("unreadable sysctls: %v", ss)
	}
}
