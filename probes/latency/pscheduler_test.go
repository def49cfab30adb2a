package latency

import (
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit/golden"
)

// The cases are archive messages and bare results the project wrote to pScheduler's latency
// result schema (each README says how); their statistics were checked against pScheduler's own
// latency_utils.Histogram.
var parsePSCase = golden.PScheduler(ParsePScheduler)

func TestPSchedulerLatencyGolden(t *testing.T) {
	golden.Run(t, "testdata/pscheduler", parsePSCase)
}

// Figures pScheduler's latency_utils.Histogram.get_stats gives for the same histograms
// (pscheduler-test-latency/latency/latency_utils.py, run on the cases' inputs).
func TestStatisticsAgreeWithPSchedulersHistogram(t *testing.T) {
	for _, c := range []struct {
		name                   string
		min, med, mean, p95, x float64
	}{
		{"latencybg-powstream-archived", 73.55, 73.61, 73.621, 73.64, 80.2},
		{"latency-owping-reverse-loss-ttl-change", 137.871, 141.113, 141.414, 144.332, 160.8},
		{"latency-twping-negative-delay", -15.32, -13.555, -13.486, -11.966, -11.37},
	} {
		cs := caseNamed(t, c.name)
		ss, err := parsePSCase(cs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		l := ss[0].(*sample.Latency)
		for _, f := range []struct {
			what      string
			got       *float64
			want, tol float64
		}{{"min", l.DelayMinMs, c.min, 0}, {"median", l.DelayMedianMs, c.med, 0.0005}, {"mean", l.DelayMeanMs, c.mean, 0.0005},
			{"p95", l.DelayP95Ms, c.p95, 0.0006}, {"max", l.DelayMaxMs, c.x, 0}} {
			if f.got == nil || *f.got < f.want-f.tol-1e-9 || *f.got > f.want+f.tol+1e-9 {
				t.Errorf("%s: %s = %v, pScheduler says %v", c.name, f.what, f.got, f.want)
			}
		}
	}
}

func caseNamed(t *testing.T, name string) golden.Case {
	for _, c := range golden.Cases(t, "testdata/pscheduler") {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %s", name)
	return golden.Case{}
}

func TestPercentileFollowsTheNISTMethodOfPScheduler(t *testing.T) {
	// 4 packets 1, 2, 3, 4: rank of the median 0.5 × 5 = 2.5, halfway between 2 and 3; of p95
	// 0.95 × 5 = 4.75 ≥ n: the last bucket.
	h := histogram{{1, 1}, {2, 1}, {3, 1}, {4, 1}}
	if v, ok := h.percentile(50, 4); !ok || v != 2.5 {
		t.Errorf("median %v %v", v, ok)
	}
	if v, ok := h.percentile(95, 4); !ok || v != 4 {
		t.Errorf("p95 %v %v", v, ok)
	}
	// one bucket: every percentile is its value
	one := histogram{{7.5, 600}}
	if s, ok := one.summarize(); !ok || s.median != 7.5 || s.p95 != 7.5 || s.min != 7.5 || s.max != 7.5 {
		t.Errorf("%+v", s)
	}
}

func TestTheReverseDirectionSwapsSourceAndDest(t *testing.T) {
	l := mustParse(t, "latency-owping-reverse-loss-ttl-change")
	if l.Src != "ps.physics.ox.ac.uk" || l.Dst != "slac-pt1.es.net" {
		t.Errorf("direction %s → %s", l.Src, l.Dst)
	}
	if *l.TTLMin != 243 || *l.TTLMax != 245 || l.LossPercent != 9 || *l.PacketsDuplicated != 1 {
		t.Errorf("%+v", l)
	}
}

func TestAFailedRunIsASampleWithItsError(t *testing.T) {
	l := mustParse(t, "latency-owping-failed-ntp-unsync")
	if l.Error == nil || !strings.Contains(l.Error.Message, "NTP: Status UNSYNC") || l.PacketsSent != 0 || l.DelayMedianMs != nil {
		t.Errorf("%+v", l)
	}
}

func mustParse(t *testing.T, name string) *sample.Latency {
	t.Helper()
	ss, err := parsePSCase(caseNamed(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return ss[0].(*sample.Latency)
}

func TestBadHistogramsAreRefusedNamingTheKey(t *testing.T) {
	head := `{"id":"r","schedule":{"start":"2026-11-26T10:00:00Z"},"test":{"type":"latency","spec":{"source":"a","dest":"b"}},"result":`
	for res, want := range map[string]string{
		`{"succeeded":true,"packets-sent":1,"histogram-latency":{"abc":1}}`:   `result.histogram-latency: key "abc" is not a number`,
		`{"succeeded":true,"packets-sent":1,"histogram-latency":{"1.0":-1}}`:  "negative count",
		`{"succeeded":true,"packets-sent":1,"histogram-ttl":{"300":1}}`:       "result.histogram-ttl",
		`{"succeeded":true,"packets-sent":-1}`:                                "result.packets-sent: negative",
		`{"histogram-ttl":{}}`:                                                "result.succeeded: missing",
		`{"succeeded":true,"packets-sent":1,"histogram-latency":{"1.0":"x"}}`: "histogram-latency",
	} {
		_, err := ParsePScheduler([]byte(head+res+"}"), (golden.Case{}).MustMeta())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", res, err, want)
		}
	}
	spec := `{"id":"r","schedule":{"start":"2026-11-26T10:00:00Z"},"test":{"type":"latency","spec":{"source":"a","dest":"b","bucket-width":2}},"result":{"succeeded":true}}`
	if _, err := ParsePScheduler([]byte(spec), (golden.Case{}).MustMeta()); err == nil || !strings.Contains(err.Error(), "bucket-width") {
		t.Errorf("bucket-width 2: %v", err)
	}
}

func FuzzPSchedulerLatency(f *testing.F) {
	golden.Fuzz(f, parsePSCase, nil, golden.ErrorBound, "testdata/pscheduler")
}

func BenchmarkParsePSchedulerLatency(b *testing.B) {
	golden.Bench(b, parsePSCase, "testdata/pscheduler")
}
