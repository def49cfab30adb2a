package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"longhaul/perfsonar/psbridge"
	"longhaul/perfsonar/psconfig"
	"longhaul/probes/probekit/golden"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// fleet is a generated fleet of n hosts in meshes of size, expanded.
func fleet(t *testing.T, n, size int) []Stream {
	t.Helper()
	ms, err := Meshes(wlcg, HostNames("fl", n), size)
	if err != nil {
		t.Fatal(err)
	}
	var all []Stream
	for i, m := range ms {
		tpl, err := psconfig.Parse("mesh", m)
		if err != nil {
			t.Fatalf("mesh %d: %v", i, err)
		}
		s, skipped := Streams(tpl)
		if len(skipped) > 0 {
			t.Fatalf("mesh %d skipped %v", i, skipped)
		}
		all = append(all, s...)
	}
	return all
}

// A generated mesh is WLCG's shape: every directed pair once per test, scheduled by its source,
// a latencybg result a minute, traceroute every 10 minutes, throughput every 6 hours.
func TestAGeneratedMeshHasWLCGsCadenceForEveryDirectedPair(t *testing.T) {
	streams := fleet(t, 7, 4) // meshes of 4 and 3
	shape := Shape(streams)
	pairs := 4*3 + 3*2
	if shape["hosts"] != 7 || shape["links"] != pairs || shape["streams"] != 3*pairs {
		t.Fatalf("%v", shape)
	}
	every := map[string]time.Duration{"latencybg": time.Minute, "trace": 10 * time.Minute, "throughput": 6 * time.Hour}
	for _, s := range streams {
		if s.Every != every[s.Test] || s.Host != s.Src {
			t.Errorf("%s %s→%s by %s every %s", s.Test, s.Src, s.Dst, s.Host, s.Every)
		}
	}
}

// Every result the simulator makes is one the bridge converts, into samples of the stream's link
// that validate against the contract, healthy and under each fault.
func TestEveryResultConvertsToValidSamplesOfItsLink(t *testing.T) {
	streams := fleet(t, 3, 3)
	hosts := HostNames("fl", 3)
	var faults []Fault
	for _, spec := range []string{"site:fl-h0002@+0s", "carrier:10.255.0.1@+0s:#0-0>#1-1:+40ms,5%"} {
		f, err := ParseFault(spec, hosts, t0)
		if err != nil {
			t.Fatal(err)
		}
		faults = append(faults, f)
	}
	for _, net := range []Network{{}, {Faults: faults}} {
		for i := range streams {
			s := &streams[i]
			body, err := Encode(Due{Stream: s, Start: t0, Seq: uint64(i)}, net)
			if err != nil {
				t.Fatal(err)
			}
			c, err := psbridge.Convert(body)
			if err != nil {
				t.Fatalf("%s %s→%s: %v\n%s", s.Test, s.Src, s.Dst, err, body)
			}
			if len(c.Samples) == 0 || !strings.HasPrefix(c.Key, "pscheduler-") {
				t.Fatalf("%s: %d samples, key %q", s.Test, len(c.Samples), c.Key)
			}
			for _, sm := range c.Samples {
				if h := sm.Head(); h.Src != s.Src || h.Dst != s.Dst {
					t.Errorf("%s: a sample of %s→%s", s.Test, h.Src, h.Dst)
				}
			}
			golden.CheckAll(t, c.Samples)
		}
	}
}

// A fault changes what it names and nothing else: the lost site's links, the carrier's pairs.
func TestFaultsChangeTheirPathsOnly(t *testing.T) {
	hosts := HostNames("fl", 4)
	site, _ := ParseFault("site:fl-h0003@+1m/+5m", hosts, t0)
	carrier, err := ParseFault("carrier:10.255.0.1@+2m:#0-1>#2-2:+40ms,5%", hosts, t0)
	if err != nil {
		t.Fatal(err)
	}
	net := Network{Faults: []Fault{site, carrier}}
	before, during, after := t0, t0.Add(3*time.Minute), t0.Add(6*time.Minute)
	if p := net.At("fl-h0000", "fl-h0003", during); p.Reachable {
		t.Error("the lost site answered")
	}
	if p := net.At("fl-h0000", "fl-h0003", after); !p.Reachable {
		t.Error("the site did not come back at its end")
	}
	healthy, moved := net.At("fl-h0001", "fl-h0002", before), net.At("fl-h0001", "fl-h0002", during)
	if moved.Hops[1] != "10.255.0.1" || moved.RTTms != healthy.RTTms+40 || math.Abs(moved.LossFrac-0.05) > 1e-9 || moved.RateBps >= healthy.RateBps {
		t.Errorf("carrier: %+v from %+v", moved, healthy)
	}
	// the carrier carries its pairs before it degrades: traceroutes know the hop already
	if strings.Join(healthy.Hops, " ") != strings.Join(moved.Hops, " ") || healthy.LossFrac != 0 {
		t.Errorf("the carrier's route changed with its fault: %v, then %v", healthy.Hops, moved.Hops)
	}
	if p, q := net.At("fl-h0002", "fl-h0001", before), net.At("fl-h0002", "fl-h0001", during); p.RTTms != q.RTTms || strings.Join(p.Hops, " ") != strings.Join(q.Hops, " ") {
		t.Errorf("the reverse direction moved too: %+v", p)
	}
	for _, bad := range []string{"site:nohost@+1m", "carrier:1.2.3.4@+1m:#0-9>#1-1:+1ms,1%", "flood:x@+1m", "site:fl-h0000@10m", "carrier:1.2.3.4@+1m:#0-0>#1-1:40ms"} {
		if _, err := ParseFault(bad, hosts, t0); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// pScheduler's retry policy (python-pscheduler retry.py): the step covering the attempts made.
func TestRetryAfterFollowsPSchedulersPolicy(t *testing.T) {
	a := Archive{Retry: []RetryStep{{Attempts: 2, Wait: "PT1M"}, {Attempts: 1, Wait: "PT10M"}}}
	for attempts, want := range map[int]time.Duration{0: time.Minute, 1: time.Minute, 2: 10 * time.Minute, 3: -1} {
		got, ok := a.RetryAfter(attempts)
		if (want < 0 && ok) || (want >= 0 && (!ok || got != want)) {
			t.Errorf("after %d: %v %v", attempts, got, ok)
		}
	}
}

// A host posts each result with its archive's headers and retries an answer outside 2xx by its
// policy (in simulated time), and records it taken; a result whose policy is spent is given up.
func TestAHostRetriesByItsPolicyAndRecordsTheOutcome(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer tok" || !json.Valid(b) {
			w.WriteHeader(401)
			return
		}
		if calls.Add(1)%2 == 1 {
			http.Error(w, "busy", http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"status":"accepted"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "longhaul-http.json")
	os.WriteFile(file, []byte(`{"archiver":"http","data":{"_url":"`+srv.URL+`","op":"post","_headers":{"Authorization":"Bearer tok"},"retry-policy":[{"attempts":1,"wait":"PT60S"}]}}`), 0o600)
	a, err := ReadArchive(file)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost("fl-h0000", a, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	streams := fleet(t, 2, 2)
	var out strings.Builder
	rec := NewRecorder(&out)
	clock := Clock{Start: t0, Wall0: time.Now(), Speed: 600} // a minute's wait is 0.1 s
	var wg sync.WaitGroup
	wg.Add(1)
	h.Send(context.Background(), clock, Due{Stream: &streams[0], Start: t0, Seq: 1}, []byte(`{"a":1}`), rec, &wg)
	wg.Wait()
	sum := rec.Summary()
	if sum["taken"] != 1 || sum["retried_status"].(map[string]int)["429"] != 1 || !strings.Contains(out.String(), `"attempts":2,"code":200`) {
		t.Fatalf("%v\n%s", sum, out.String())
	}
	// a second 429 with the one retry spent: given up, its last answer recorded
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	wg.Add(1)
	h.Send(context.Background(), clock, Due{Stream: &streams[0], Start: t0, Seq: 2}, []byte(`{"a":1}`), rec, &wg)
	if sum := rec.Summary(); sum["gave_up"] != 1 || sum["final_status"].(map[string]int)["503"] != 1 {
		t.Fatalf("%v", sum)
	}
}

// The results of a span are due once each, when their run has ended, in that order.
func TestResultsAreDueOnceWhenTheirRunEnds(t *testing.T) {
	streams := fleet(t, 3, 3)
	var seq uint64
	seen := map[string]int{}
	var last time.Time
	for m := 0; m < 30; m++ {
		from := t0.Add(time.Duration(m) * time.Minute)
		for _, d := range DueBetween(streams, from, from.Add(time.Minute), &seq) {
			if d.Ready().Before(last) || d.Ready().Before(from) || !d.Ready().Before(from.Add(time.Minute)) {
				t.Fatalf("out of order or span: %v after %v", d.Ready(), last)
			}
			last = d.Ready()
			seen[d.Stream.Test+d.Stream.Src+d.Stream.Dst+d.Start.String()]++
			if d.Stream.Test == "latencybg" && d.Ready().Sub(d.Start) != time.Minute {
				t.Fatalf("a latencybg result ready %v after its start", d.Ready().Sub(d.Start))
			}
		}
	}
	counts := map[string]int{}
	for k, n := range seen {
		if n != 1 {
			t.Fatalf("%s due %d times", k, n)
		}
		counts[k[:strings.IndexAny(k, "f")]]++
	}
	// 6 directed pairs: 30 latencybg results each in 30 minutes; 2 to 4 traceroutes (a slot of
	// the 10-minute grid up to 5 minutes before the span can slip into it)
	if counts["latencybg"] != 6*30 || counts["trace"] < 6*2 || counts["trace"] > 6*4 {
		t.Fatalf("%v", counts)
	}
}

// The README's command line: faults given on it reach the run (a run without them measured
// nothing of what they were for).
func TestTheCommandLineTakesFaults(t *testing.T) {
	var o options
	fs := flag.NewFlagSet("longhaul-fleet", flag.ContinueOnError)
	register(fs, &o)
	err := fs.Parse([]string{"-hosts", "60", "-fault", "carrier:10.255.0.1@+5m:#0-14>#15-29:+40ms,5%", "-fault", "site:fleet-h0042@+8m/+12m"})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.faults) != 2 || o.hosts != 60 {
		t.Fatalf("faults %v, hosts %d", o.faults, o.hosts)
	}
	hosts := HostNames("fleet", 60)
	for _, spec := range o.faults {
		if _, err := ParseFault(spec, hosts, t0); err != nil {
			t.Error(err)
		}
	}
}
