package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"longhaul/perfsonar/psconfig"
)

// Stream is one recurring test of the fleet: the pScheduler host that schedules and archives
// it, its test as the template gives it, and when it runs.
type Stream struct {
	Host     string // the scheduling address: the host whose archiver posts the results
	Task     string
	Test     string // pScheduler's test type
	Src, Dst string
	Spec     map[string]any // the test's spec with its source and dest
	Every    time.Duration  // a result every (latencybg: its packets' span, continuously)
	Slip     time.Duration  // each run starts within this of its slot
	Sliprand bool
	Duration time.Duration // throughput: the test's duration
	Packets  int           // latency, latencybg: packets per result
}

// Streams is every stream of the template: each address's plan as pSConfig's agent on that host
// would make it (perfsonar/psconfig, the agent's own planner), with pScheduler's cadence. Tests
// without a cadence (a schedule without repeat, except latencybg, which runs continuously) are
// counted in skipped with the reason.
func Streams(t *psconfig.Template) (out []Stream, skipped map[string]int) {
	skipped = map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(t.Addresses)) {
		for _, e := range t.Plan([]string{name}) {
			s, why := stream(t, name, e)
			if why != "" {
				skipped[why]++
				continue
			}
			out = append(out, s)
		}
	}
	return out, skipped
}

// stream is one plan entry as a Stream, or why it has no cadence.
func stream(t *psconfig.Template, host string, e psconfig.Entry) (Stream, string) {
	test := t.Tests[t.Tasks[e.Task].Test]
	s := Stream{Host: host, Task: e.Task, Test: e.Test, Src: e.Src, Dst: e.Dst, Spec: spec(test, e),
		Every: e.Interval(), Slip: e.Slip(), Sliprand: e.Sliprand}
	switch e.Test {
	case "latencybg", "latency":
		count, interval := num(test.Spec, "packet-count", 600), num(test.Spec, "packet-interval", 0.1)
		s.Packets = int(count)
		if e.Test == "latencybg" {
			s.Every = time.Duration(count * interval * float64(time.Second))
		}
	case "throughput":
		s.Duration = 10 * time.Second
		if d, ok := test.Spec["duration"].(string); ok {
			if v, err := psconfig.ParseDuration(d); err == nil {
				s.Duration = v
			}
		}
	}
	if s.Every <= 0 {
		return s, fmt.Sprintf("%s: no repeat in its schedule", e.Test)
	}
	if s.Src == "" || s.Dst == "" {
		return s, fmt.Sprintf("%s: no source or dest", e.Test)
	}
	return s, ""
}

// spec is the test's spec with the pair's source and dest; other fields that name template
// variables are left out (the results carry what the parsers read).
func spec(test *psconfig.Test, e psconfig.Entry) map[string]any {
	out := map[string]any{}
	for k, v := range test.Spec {
		if str, ok := v.(string); ok && strings.Contains(str, "{%") {
			continue
		}
		out[k] = v
	}
	out["source"], out["dest"] = e.Src, e.Dst
	return out
}

func num(m map[string]any, key string, def float64) float64 {
	if v, ok := m[key].(float64); ok && v > 0 {
		return v
	}
	return def
}

// Slots are a stream's run starts from..to: every Every from its own phase, each moved within
// Slip (at random with sliprand, as pScheduler draws it; here a stable draw per run).
func (s Stream) Slots(from, to time.Time) []time.Time {
	phase := time.Duration(unit("phase", s.Host, s.Task, s.Src, s.Dst) * float64(s.Every))
	first := from.Truncate(s.Every).Add(phase)
	if first.Before(from) {
		first = first.Add(s.Every)
	}
	var out []time.Time
	for t := first; t.Before(to); t = t.Add(s.Every) {
		slip := time.Duration(0)
		if s.Sliprand && s.Slip > 0 {
			slip = time.Duration(unit("slip", s.Host, s.Task, s.Src, s.Dst, t.String()) * float64(s.Slip))
		}
		out = append(out, t.Add(slip))
	}
	return out
}
