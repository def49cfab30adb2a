package throughput

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
	"longhaul/probes/probekit/golden"
)

var parseIperf3Case = golden.Tool("iperf3", func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
	return ParseIperf3(in, m, Requested{})
})

func TestIperf3Golden(t *testing.T) {
	golden.Run(t, "testdata/iperf3", parseIperf3Case)
}

func summaries(ss []sample.Sample) []*sample.Throughput {
	var out []*sample.Throughput
	for _, s := range ss {
		if r := s.(*sample.Throughput); r.Record == sample.RecordSummary {
			out = append(out, r)
		}
	}
	return out
}

func goldenCase(t *testing.T, dir string) golden.Case {
	t.Helper()
	for _, c := range golden.Cases(t, "testdata/"+strings.Split(dir, "/")[0]) {
		if c.Dir == "testdata/"+dir {
			return c
		}
	}
	t.Fatalf("no case %s", dir)
	return golden.Case{}
}

func TestIperf3BidirIsTwoRunsOneSummaryEach(t *testing.T) {
	for _, dir := range []string{"iperf3/bidir-tcp-50M-lo", "iperf3/server-log-bidir-tcp-lo", "iperf3/bidir-udp-10M-lo"} {
		ss, err := parseIperf3Case(goldenCase(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		sums := summaries(ss)
		if len(sums) != 2 || sums[0].Direction != "forward" || sums[1].Direction != "reverse" ||
			!strings.HasSuffix(sums[0].RunID, "-forward") || !strings.HasSuffix(sums[1].RunID, "-reverse") {
			t.Fatalf("%s: %d summaries %+v", dir, len(sums), sums)
		}
		for _, s := range ss {
			r := s.(*sample.Throughput)
			if want := "-" + r.Direction; !strings.HasSuffix(r.RunID, want) {
				t.Errorf("%s: a %s record of run %s", dir, r.Direction, r.RunID)
			}
		}
	}
}

// The server's log has the received figures of a forward run, the sender's of its reverse
// direction; what only the client measured (its sent bytes, its RTT) is absent, not zero.
func TestIperf3ServerLogKeepsOnlyWhatTheServerMeasured(t *testing.T) {
	ss, err := parseIperf3Case(goldenCase(t, "iperf3/server-log-tcp-100M-lo"))
	if err != nil {
		t.Fatal(err)
	}
	sum := summaries(ss)[0]
	if sum.SentBytes != nil || sum.RTTMs != nil || sum.ReceivedBytes == nil || *sum.ReceivedBytes != 37617664 || sum.Port == nil || *sum.Port != 15202 {
		t.Fatalf("%+v", sum)
	}
	ss, err = parseIperf3Case(goldenCase(t, "iperf3/server-log-bidir-tcp-lo"))
	if err != nil {
		t.Fatal(err)
	}
	fwd, rev := summaries(ss)[0], summaries(ss)[1]
	if fwd.SentBytes != nil || fwd.ReceivedBytes == nil || rev.ReceivedBytes != nil || rev.SentBytes == nil || rev.RTTMs == nil || fwd.RTTMs != nil {
		t.Fatalf("forward %+v\nreverse %+v", fwd, rev)
	}
}

// An output cut anywhere after its first complete interval keeps the complete intervals and
// says it was cut; cut before, it is refused; it never yields an invalid sample.
func TestIperf3CutAnywhere(t *testing.T) {
	c := goldenCase(t, "iperf3/tcp-2streams-tbf20mbit-netns")
	whole, err := parseIperf3Case(c)
	if err != nil {
		t.Fatal(err)
	}
	reg := golden.Schemas(t)
	full := c.Input
	end := bytes.LastIndex(full, []byte(`"end"`))
	for n := 1; n < len(full); n += 7 {
		c.Input = full[:n]
		ss, err := parseIperf3Case(c)
		if err != nil {
			checkErrorBound(t, err)
			continue
		}
		golden.Encode(t, reg, ss)
		last := ss[len(ss)-1].(*sample.Throughput)
		if n < end && (last.Error == nil || !strings.Contains(last.Error.Message, "cut short")) {
			t.Fatalf("cut at %d: summary %+v", n, last)
		}
		if len(ss) > len(whole) {
			t.Fatalf("cut at %d: %d samples, more than the whole run's %d", n, len(ss), len(whole))
		}
	}
}

func TestIperf3RefusesTextOutputSayingToUseJ(t *testing.T) {
	for _, in := range []string{
		"iperf3: error - unable to connect to server: Connection refused\n",
		"Connecting to host 10.0.0.1, port 5201\n[  5] local 10.0.0.2 port 1 connected to 10.0.0.1 port 5201\n",
		"-----------------------------------------------------------\nServer listening on 5201 (test #1)\n",
	} {
		_, err := ParseIperf3([]byte(in), importMeta(true), Requested{})
		if err == nil || !strings.Contains(err.Error(), "run iperf3 with -J") || !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// Errors name line and column (from 1) and quote a short snippet from there.
func TestIperf3ErrorsSayWhereWithASnippet(t *testing.T) {
	in := "{\n\t\"start\": {},\n\t\"intervals\": [}\n}\n"
	_, err := ParseIperf3([]byte(in), importMeta(true), Requested{})
	if err == nil || !strings.HasPrefix(err.Error(), "line 3 col 16: invalid JSON") || !strings.Contains(err.Error(), `near "}"`) {
		t.Fatalf("%v", err)
	}
	long := `{"start": {"test_start": {"protocol": "` + strings.Repeat("x", 100000) + `"}}, "end": {}}`
	_, err = ParseIperf3([]byte(long), importMeta(true), Requested{})
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "start.test_start.protocol") {
		t.Fatalf("%d bytes: %.300v", len(err.Error()), err)
	}
}

func TestIperf3IsBounded(t *testing.T) {
	checkBounded(t, func(in []byte) ([]sample.Sample, error) { return ParseIperf3(in, importMeta(true), Requested{}) })
}

func FuzzIperf3(f *testing.F) {
	golden.Fuzz(f, parseIperf3Case, []string{"--src", "a", "--dst", "b", "--ts", "1795239644000"}, checkErrorBound, "testdata/iperf3")
}

// longIperf3 is the real 4-stream capture with its intervals repeated n times over, as a
// long test prints them.
func longIperf3(b testing.TB, n int) []byte {
	raw, err := os.ReadFile("testdata/iperf3/tcp-4streams-lo/input.json")
	if err != nil {
		b.Fatal(err)
	}
	var o map[string]any
	if err := json.Unmarshal(raw, &o); err != nil {
		b.Fatal(err)
	}
	ivs := o["intervals"].([]any)
	var out []any
	for i := 0; len(out) < n; i++ {
		for _, iv := range ivs {
			c := shift(iv, float64(i*len(ivs)))
			out = append(out, c)
		}
	}
	o["intervals"] = out[:n]
	b2, err := json.MarshalIndent(o, "", "\t")
	if err != nil {
		b.Fatal(err)
	}
	return b2
}

// shift copies an interval, its start and end moved by d seconds.
func shift(v any, d float64) any {
	switch x := v.(type) {
	case map[string]any:
		c := map[string]any{}
		for k, e := range x {
			if f, ok := e.(float64); ok && (k == "start" || k == "end") {
				c[k] = f + d
			} else {
				c[k] = shift(e, d)
			}
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = shift(e, d)
		}
		return c
	}
	return v
}

func BenchmarkParseIperf3(b *testing.B) {
	in := longIperf3(b, 3600) // one hour of 1 s intervals, 4 streams
	m := importMeta(true)
	golden.BenchInput(b, in, func(in []byte) ([]sample.Sample, error) { return ParseIperf3(in, m, Requested{}) })
}
