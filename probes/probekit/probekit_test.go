package probekit

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/ingest/sample"
)

func TestClassifyNamesTheSchemasClassesFromRealToolMessages(t *testing.T) {
	cases := map[string]sample.ErrorClass{
		"unable to connect to server: Connection refused":                sample.ErrConnectionRefused,
		"connect failed: Connection refused":                             sample.ErrConnectionRefused,
		"the server is busy running a test. try again later":             sample.ErrServerBusy,
		"unable to connect to server: Connection timed out":              sample.ErrTimeout,
		"unable to connect to server: No route to host":                  sample.ErrNoRoute,
		"ping: connect: Network is unreachable":                          sample.ErrNoRoute,
		"From 10.99.0.254 icmp_seq=1 Destination Host Unreachable":       sample.ErrHostUnreachable,
		"From 10.99.0.254 icmp_seq=1 Packet filtered":                    sample.ErrHostUnreachable,
		"ping: nosuchhost.invalid: Temporary failure in name resolution": sample.ErrDNS,
		"traceroute: foo: Name or service not known":                     sample.ErrDNS,
		"the server has terminated":                                      sample.ErrToolFailed,
		"unable to connect to server: Resource temporarily unavailable":  sample.ErrToolFailed,
		"ping: bad address 'nosuch.invalid'":                             sample.ErrDNS,
		"ping: cannot resolve nosuch.invalid: Unknown host":              sample.ErrDNS,
		"From 10.77.1.1 icmp_seq=1 Time to live exceeded":                sample.ErrNoRoute,
	}
	for msg, want := range cases {
		if got := Classify(msg); got != want {
			t.Errorf("Classify(%q) = %s, want %s", msg, got, want)
		}
	}
}

func TestExecFailureTellsMissingToolTimeoutAndStderr(t *testing.T) {
	notFound := &exec.Error{Name: "iperf3", Err: exec.ErrNotFound}
	if e := ExecFailure(context.Background(), "iperf3", notFound, nil); e.Class != sample.ErrToolMissing {
		t.Errorf("missing tool: %+v", e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if e := ExecFailure(ctx, "iperf3", errors.New("signal: killed"), nil); e.Class != sample.ErrTimeout {
		t.Errorf("deadline: %+v", e)
	}
	stopped, stop := context.WithCancel(context.Background())
	stop()
	if e := ExecFailure(stopped, "iperf3", errors.New("signal: killed"), nil); e.Class != sample.ErrOther || !strings.Contains(e.Message, "cancelled") {
		t.Errorf("cancelled: %+v", e)
	}
	if e := ExecFailure(context.Background(), "ping", errors.New("exit status 2"), []byte("ping: connect: No route to host\n")); e.Class != sample.ErrNoRoute || e.Message != "ping: connect: No route to host" {
		t.Errorf("stderr: %+v", e)
	}
	if e := ExecFailure(context.Background(), "ping", errors.New("exit status 1"), nil); e.Class != sample.ErrToolFailed {
		t.Errorf("bare exit: %+v", e)
	}
}

func TestMessageIsCutToTheSchemaLimitOnACharacterBoundary(t *testing.T) {
	m := Message(strings.Repeat("é", 1500))
	if len(m) > 2000 || !strings.HasSuffix(m, "…") || !strings.HasPrefix(m, "é") {
		t.Fatalf("len %d", len(m))
	}
}

func TestSizeAcceptsIperfFormsAndRefusesAmbiguousOnes(t *testing.T) {
	for in, want := range map[string]Size{"65536": 65536, "64K": 65536, "64k": 65536, "4M": 4 << 20, "16MiB": 16 << 20, "1G": 1 << 30, "1.5M": 1572864} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"64KB", "4MB", "lots", "-1", "1.5", "", "9999999G"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
	for z, want := range map[Size]string{65536: "64K", 4 << 20: "4M", 1 << 30: "1G", 1000: "1000", 0: "0"} {
		if z.String() != want {
			t.Errorf("%d.String() = %s", z, z.String())
		}
	}
}

func TestRateIsDecimalLikeIperfB(t *testing.T) {
	for in, want := range map[string]Rate{"50M": 50e6, "1G": 1e9, "2.5G": 2.5e9, "300k": 3e5, "1000": 1000} {
		got, err := ParseRate(in)
		if err != nil || got != want {
			t.Errorf("ParseRate(%q) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"fast", "-5M", "", "M"} {
		if _, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q) accepted", in)
		}
	}
}

type testParams struct {
	Port     int      `yaml:"port"`
	Window   Size     `yaml:"window"`
	Duration Duration `yaml:"duration"`
	Reverse  bool     `yaml:"reverse"`
}

func decode(t *testing.T, src string) (testParams, error) {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	p := testParams{Port: 5201, Duration: Duration(10 * time.Second)}
	return p, DecodeParams(&n, &p)
}

func TestDecodeParamsKeepsDefaultsAndNamesTheFieldOfEveryError(t *testing.T) {
	p, err := decode(t, "window: 4M\nreverse: true\n")
	if err != nil || p.Window != 4<<20 || !p.Reverse || p.Port != 5201 || p.Duration.D() != 10*time.Second {
		t.Fatalf("%+v %v", p, err)
	}
	if p, err := decode(t, "{}"); err != nil || p.Port != 5201 {
		t.Fatalf("empty: %+v %v", p, err)
	}
	if err := DecodeParams(nil, &p); err != nil {
		t.Fatalf("nil node: %v", err)
	}
	for src, want := range map[string]string{
		"bogus: 1":             "bogus: unknown field",
		"port: fivethousand":   `port: invalid value "fivethousand" (want an integer)`,
		"window: 64KB":         "window: invalid size \"64KB\"",
		"duration: 10":         `duration: invalid duration "10"`,
		"duration: -5s":        `duration: negative duration`,
		"reverse: maybe":       "reverse: invalid value",
		"port: 1\nport: 2":     "port: given twice",
		"- a\n- b":             "params: must be a mapping",
		"window: [1, 2]":       "window: invalid size",
		"duration: {a: 1}":     "duration: invalid duration",
		"reverse: {a: 1}":      "reverse: want true or false",
		"port: 5201\nbogus: x": "bogus: unknown field (known: duration, port, reverse, window)",
	} {
		_, err := decode(t, src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

func TestCheckTargetRefusesWhatAToolWouldReadAsAnOption(t *testing.T) {
	for _, ok := range []string{"ps1.fnal.gov", "10.0.0.1", "2001:db8::1", "fe80::1%eth0", "host_1"} {
		if err := CheckTarget(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "-c", "--help", "a b", "a;b", "$(id)", "a\nb", "x/y", strings.Repeat("a", 254)} {
		if err := CheckTarget(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLinesUndoWhatReportsDoToOutputs(t *testing.T) {
	in := "```\n| [ID] | Interval | Transfer |\n|---|--|---|\n| [3] | 0.0- 5.0 sec | 24.2 GBytes |\n\n...\n  [ 3] Sent 5 datagrams  \r\n```\n"
	got := Lines([]byte(in))
	want := []Line{{2, "[ID]  Interval  Transfer"}, {4, "[3]  0.0- 5.0 sec  24.2 GBytes"}, {7, "[ 3] Sent 5 datagrams"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// ISODurationSeconds takes what pScheduler's Duration pattern (jsonval.py) takes: weeks, and
// "P" and "PT" (no part: zero), as well as the usual forms.
func TestISODurationSeconds(t *testing.T) {
	for in, want := range map[string]float64{"PT0.000123S": 0.000123, "PT5S": 5, "PT1M2.5S": 62.5, "P1DT1H": 90000, "PT0S": 0,
		"P": 0, "PT": 0, "P2W": 1209600, "P0.5W": 302400, "P1W1DT1H1M1S": 694861} {
		got, err := ISODurationSeconds(in)
		if err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	for _, in := range []string{"", "5", "PT-1S", "P1Y", "P1M", "PTS", "P1D1W", "pt1s", "PT1S ", "P40000W"} {
		if _, err := ISODurationSeconds(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// A number of thousands of digits is out of float64's range: the error names it by a snippet,
// not by the whole number strconv's message would quote (a 3,281-byte error, found by fuzzing
// FuzzPSchedulerRTT in CI).
func TestISODurationSecondsOutOfRangeErrorIsBounded(t *testing.T) {
	in := "PT" + strings.Repeat("9", 5000) + "S"
	_, err := ISODurationSeconds(in)
	if err == nil || !strings.Contains(err.Error(), "value out of range") || len(err.Error()) > 200 {
		t.Fatalf("%d bytes: %.300v", len(fmt.Sprint(err)), err)
	}
}

func TestMetaRefusesWhatTheSchemasRefuse(t *testing.T) {
	ok := Meta{Src: "a", Dst: "b", ProbeID: "p", RunID: "r"}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, m := range []Meta{{Src: "-c;rm", Dst: "b", ProbeID: "p", RunID: "r"}, {Src: "a", Dst: "", ProbeID: "p", RunID: "r"}, {Src: "a", Dst: "b", RunID: "r"}} {
		if err := m.Check(); err == nil {
			t.Errorf("%+v accepted", m)
		}
	}
	if _, err := (Meta{Start: time.Unix(1325746800, 0)}).StartMS(); err != nil {
		t.Fatal(err)
	}
	if _, err := (Meta{}).StartMS(); err == nil || !strings.Contains(err.Error(), "--ts") {
		t.Fatalf("no start: %v", err)
	}
	if _, err := CheckEpochMS(1325746800); err == nil {
		t.Fatal("seconds accepted as milliseconds")
	}
}

func TestImportRunIDIsStablePerToolAndInput(t *testing.T) {
	a, b := ImportRunID("ping", []byte("x")), ImportRunID("ping", []byte("x"))
	if a != b || a == ImportRunID("ping", []byte("y")) || a == ImportRunID("traceroute", []byte("x")) {
		t.Fatal(a, b)
	}
}

func TestDecodeJSONLocatesErrors(t *testing.T) {
	var v struct {
		A struct {
			B int `json:"b"`
		} `json:"a"`
	}
	for in, want := range map[string]string{
		"{\n\"a\": {\"b\": \"x\"}}": "JSON path a.b: got string",
		"{\n  \"a\": ,}":            "line 2 col",
		"{\"a\": {":                 "truncated JSON",
		"":                          "empty input",
		"{} {}":                     "more than one JSON value",
	} {
		err := DecodeJSON([]byte(in), &v)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
