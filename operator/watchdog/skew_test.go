package watchdog

import (
	"strings"
	"testing"
	"time"
)

func TestAClockBeyondTheContractsToleranceNamesItsHost(t *testing.T) {
	c := SkewCheck{Tolerance: DefaultSkewTolerance, MinSamples: 5}
	if DefaultSkewTolerance != 30*time.Second {
		t.Fatalf("the contract's tolerance is %s", DefaultSkewTolerance)
	}
	o := &Observations{Agents: []AgentView{
		{Host: "ok.example.org", Skews: 64, Skew: -400 * time.Millisecond},
		{Host: "behind.example.org", Skews: 64, Skew: -45 * time.Second},
		{Host: "ahead.example.org", Skews: 5, Skew: 31 * time.Second},
		{Host: "unknown.example.org", Skews: 4, Skew: time.Hour},
	}}
	f := c.Judge(o)
	if len(f) != 3 {
		t.Fatalf("%+v", f)
	}
	if !f[0].Healthy || f[1].Healthy || f[2].Healthy {
		t.Fatalf("%+v", f)
	}
	if f[1].Subject != "behind.example.org" || !strings.Contains(f[1].Message, "45s behind the broker's, beyond the tolerance of 30s") ||
		f[1].Evidence["skew_s"] != -45.0 || f[1].Component != ComponentClock {
		t.Fatalf("%+v", f[1])
	}
	if !strings.Contains(f[2].Message, "ahead of") {
		t.Fatalf("%+v", f[2])
	}
	e := degraded(f[1], at(0), at(60), EpisodeID("", f[1].Component, f[1].Subject, at(0)))
	validEvent(t, e)
	if e.Src != "behind.example.org" {
		t.Fatalf("the event does not name the host: %+v", e)
	}
}
