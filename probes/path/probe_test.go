package path

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/internal/sampletest"
	"longhaul/probes/probe"
	"longhaul/probes/probekit/golden"
)

var job = probe.Job{Src: "lh-a", Dst: "lh-f", Target: "10.90.0.2", ProbeID: "path", RunID: "run-1",
	Start: time.Date(2026, 11, 21, 5, 49, 59, 0, time.UTC)}

func params(t *testing.T, src string) Params {
	t.Helper()
	return sampletest.MustDecode(t, src, DecodeParams)
}

// captured replays a capture: traceroute writes the header and hops to stdout and its
// errors to stderr.
func captured(t *testing.T, stdoutFile, stderr string, err error) (probe.Exec, *[][]string) {
	var calls [][]string
	return func(_ context.Context, argv []string) ([]byte, []byte, error) {
		calls = append(calls, argv)
		var out []byte
		if stdoutFile != "" {
			var rerr error
			if out, rerr = os.ReadFile(stdoutFile); rerr != nil {
				t.Fatal(rerr)
			}
		}
		return out, []byte(stderr), err
	}, &calls
}

func TestArgvKeepsOneFlowPerTarget(t *testing.T) {
	p := params(t, "{}")
	argv, err := Argv(p, "10.90.0.2")
	if err != nil {
		t.Fatal(err)
	}
	sport := p.sourcePort("10.90.0.2")
	want := []string{"traceroute", "-n", "-U", "-p", "33434", "--sport=" + strconv.Itoa(sport), "-q", "3", "-m", "30", "-w", "2", "10.90.0.2"}
	if !reflect.DeepEqual(argv, want) {
		t.Fatalf("%q", argv)
	}
	again, _ := Argv(p, "10.90.0.2")
	if !reflect.DeepEqual(argv, again) || sport < 20000 || sport > 20999 {
		t.Fatalf("source port %d must be stable and in 20000-20999", sport)
	}
	if p.sourcePort("ps1.fnal.gov") == sport && p.sourcePort("ps2.fnal.gov") == sport {
		t.Fatal("every target on one source port: concurrent runs would collide on bind()")
	}
	fixed := params(t, "{source_port: 40000, wait: 500ms, queries: 1, max_ttl: 12, port: 443}")
	argv, _ = Argv(fixed, "ps1.fnal.gov")
	if strings.Join(argv, " ") != "traceroute -n -U -p 443 --sport=40000 -q 1 -m 12 -w 0.5 ps1.fnal.gov" {
		t.Fatalf("%q", argv)
	}
	if fixed.Timeout() != 16*time.Second {
		t.Fatalf("timeout %v", fixed.Timeout())
	}
	if _, err := Argv(p, "-I"); err == nil {
		t.Fatal("option-like target accepted")
	}
}

func TestParamsErrorsNameTheField(t *testing.T) {
	sampletest.RefusedParams(t, DecodeParams, map[string]string{
		"{queries: 0}":      "queries:",
		"{queries: 11}":     "queries:",
		"{max_ttl: 256}":    "max_ttl:",
		"{wait: 10ms}":      "wait:",
		"{wait: 5}":         "wait: invalid duration",
		"{port: 70000}":     "port:",
		"{source_port: 80}": "source_port:",
		"{first_ttl: 2}":    "first_ttl: unknown field",
	})
}

func TestRunOnCapturedOutputs(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cases := []struct {
		name    string
		ctx     context.Context
		stdout  string
		stderr  string
		err     error
		hops    int
		reached bool
		class   sample.ErrorClass
	}{
		{"fixed flow over ECMP", context.Background(), "testdata/traceroute/netns-ecmp-fixed-flow/input.txt", "", nil, 3, true, ""},
		{"connect error on stderr", context.Background(), "", "connect: No route to host\n", errors.New("exit status 1"), 0, false, sample.ErrNoRoute},
		{"tool missing", context.Background(), "", "", &exec.Error{Name: "traceroute", Err: exec.ErrNotFound}, 0, false, sample.ErrToolMissing},
		{"killed mid-run keeps the hops", expired, "testdata/traceroute/netns-blackhole-all-stars/input.txt", "", errors.New("signal: killed"), 4, false, sample.ErrTimeout},
		{"unparseable", context.Background(), "../rtt/testdata/ping/loopback-5/input.txt", "", nil, 0, false, sample.ErrToolFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex, calls := captured(t, c.stdout, c.stderr, c.err)
			pr, err := Factory(nil, ex)
			if err != nil {
				t.Fatal(err)
			}
			ss := pr.Run(c.ctx, job)
			golden.CheckAll(t, ss)
			p := ss[0].(*sample.Path)
			if len(ss) != 1 || len(p.Hops) != c.hops || p.Reached != c.reached || p.RunID != "run-1" || p.TS != job.Start.UnixMilli() {
				t.Fatalf("%d samples, %d hops, reached %v: %+v", len(ss), len(p.Hops), p.Reached, p)
			}
			if (c.class == "" && p.Error != nil) || (c.class != "" && (p.Error == nil || p.Error.Class != c.class)) {
				t.Fatalf("error %+v, want %s", p.Error, c.class)
			}
			if len(*calls) != 1 || (*calls)[0][0] != "traceroute" {
				t.Fatalf("%q", *calls)
			}
		})
	}
}

func TestOptionLikeTargetIsNotRun(t *testing.T) {
	ex, calls := captured(t, "", "", nil)
	pr, _ := Factory(nil, ex)
	j := job
	j.Target = "--help"
	ss := pr.Run(context.Background(), j)
	if len(*calls) != 0 || ss[0].(*sample.Path).Error.Class != sample.ErrNotStarted {
		t.Fatalf("%q %+v", *calls, ss[0])
	}
	if _, ok := probe.Lookup(Kind); !ok || pr.Exclusive() {
		t.Fatal("path must be registered and not exclusive")
	}
}
