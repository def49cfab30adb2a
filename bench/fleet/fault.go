package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Fault is something going wrong in the fleet from a moment on (and until another, if given).
//
//	site:HOST@+10m            HOST unreachable: every test to it fails, its own tests too
//	host:HOST@+10m            HOST's pScheduler stops: it posts nothing more
//	carrier:HOP@+10m/+40m:SRC>DST:+DELAYms,LOSS%
//	                          carrier hop HOP (an address) carries the paths from the hosts SRC
//	                          to the hosts DST all along (their traceroutes show it from the
//	                          start), and from +10m to +40m it adds DELAY and loses LOSS percent
//
// HOST, SRC and DST are host names, or #A-B for the A-th to B-th host of the fleet (from 0).
// Times are offsets from the run's start in the simulated clock.
type Fault struct {
	Kind     string // site, host, carrier
	From, To time.Time
	Src, Dst []string // carrier: the hosts on either side; site and host: Src alone
	Hop      string
	DelayMs  float64
	LossFrac float64
	spec     string
}

// ParseFault reads one fault of the spec above for a fleet of these hosts starting at start.
func ParseFault(spec string, hosts []string, start time.Time) (Fault, error) {
	f := Fault{spec: spec}
	kind, rest, ok := strings.Cut(spec, ":")
	if !ok {
		return f, fmt.Errorf("fault %q: want KIND:ARGS@+OFFSET (site, host or carrier)", spec)
	}
	f.Kind = kind
	var what, when, tail string
	switch kind {
	case "site", "host":
		what, when, ok = strings.Cut(rest, "@")
	case "carrier":
		what, rest, ok = strings.Cut(rest, "@")
		if ok {
			when, tail, ok = strings.Cut(rest, ":")
		}
	default:
		return f, fmt.Errorf("fault %q: kind %q is not site, host or carrier", spec, kind)
	}
	if !ok {
		return f, fmt.Errorf("fault %q: want %s", spec, map[string]string{"site": "site:HOST@+OFFSET", "host": "host:HOST@+OFFSET", "carrier": "carrier:HOP@+OFFSET:SRC>DST:+DELAYms,LOSS%"}[kind])
	}
	var err error
	if f.From, f.To, err = window(when, start); err != nil {
		return f, fmt.Errorf("fault %q: %v", spec, err)
	}
	if kind != "carrier" {
		f.Src, err = hostSet(what, hosts)
		if err != nil {
			return f, fmt.Errorf("fault %q: %v", spec, err)
		}
		return f, nil
	}
	f.Hop = what
	sides, effect, ok := strings.Cut(tail, ":")
	src, dst, ok2 := strings.Cut(sides, ">")
	if !ok || !ok2 {
		return f, fmt.Errorf("fault %q: want carrier:HOP@+OFFSET:SRC>DST:+DELAYms,LOSS%%", spec)
	}
	if f.Src, err = hostSet(src, hosts); err == nil {
		f.Dst, err = hostSet(dst, hosts)
	}
	if err == nil {
		f.DelayMs, f.LossFrac, err = effectOf(effect)
	}
	if err != nil {
		return f, fmt.Errorf("fault %q: %v", spec, err)
	}
	return f, nil
}

// window reads "+10m" or "+10m/+40m" as offsets from start.
func window(s string, start time.Time) (from, to time.Time, err error) {
	a, b, both := strings.Cut(s, "/")
	d, err := time.ParseDuration(strings.TrimPrefix(a, "+"))
	if err != nil || !strings.HasPrefix(a, "+") {
		return from, to, fmt.Errorf("offset %q: want +DURATION (+10m)", a)
	}
	from = start.Add(d)
	if both {
		e, err := time.ParseDuration(strings.TrimPrefix(b, "+"))
		if err != nil || !strings.HasPrefix(b, "+") || e <= d {
			return from, to, fmt.Errorf("end %q: want +DURATION after %s", b, a)
		}
		to = start.Add(e)
	}
	return from, to, nil
}

// hostSet reads a host name or #A-B.
func hostSet(s string, hosts []string) ([]string, error) {
	if r, ok := strings.CutPrefix(s, "#"); ok {
		a, b, _ := strings.Cut(r, "-")
		lo, err1 := strconv.Atoi(a)
		hi, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi >= len(hosts) {
			return nil, fmt.Errorf("hosts %q: want #A-B within 0-%d", s, len(hosts)-1)
		}
		return hosts[lo : hi+1], nil
	}
	if !slices.Contains(hosts, s) {
		return nil, fmt.Errorf("no host %q in the fleet", s)
	}
	return []string{s}, nil
}

// effectOf reads "+40ms,5%".
func effectOf(s string) (delayMs, loss float64, err error) {
	d, l, ok := strings.Cut(s, ",")
	if !ok || !strings.HasPrefix(d, "+") || !strings.HasSuffix(d, "ms") || !strings.HasSuffix(l, "%") {
		return 0, 0, fmt.Errorf("effect %q: want +DELAYms,LOSS%%", s)
	}
	if delayMs, err = strconv.ParseFloat(d[1:len(d)-2], 64); err == nil {
		loss, err = strconv.ParseFloat(l[:len(l)-1], 64)
	}
	if err != nil || delayMs < 0 || loss < 0 || loss > 100 {
		return 0, 0, fmt.Errorf("effect %q: a delay of 0 ms or more and a loss of 0-100 %%", s)
	}
	return delayMs, loss / 100, nil
}

// Active: the fault holds at t.
func (f Fault) Active(t time.Time) bool {
	return !t.Before(f.From) && (f.To.IsZero() || t.Before(f.To))
}

// Affects: the fault changes the path from src to dst (a lost site both ways).
func (f Fault) Affects(src, dst string) bool {
	switch f.Kind {
	case "site":
		return slices.Contains(f.Src, src) || slices.Contains(f.Src, dst)
	case "carrier":
		return slices.Contains(f.Src, src) && slices.Contains(f.Dst, dst)
	}
	return false
}

// Silences: host's pScheduler posts nothing at t.
func (f Fault) Silences(host string, t time.Time) bool {
	return f.Kind == "host" && f.Active(t) && slices.Contains(f.Src, host)
}

// Route puts a carrier fault's hop on the paths it carries, whether or not it is degraded yet:
// after the source's border, before the regions' own carriers.
func (f Fault) Route(p *Path) {
	if f.Kind == "carrier" {
		p.Hops = append([]string{p.Hops[0], f.Hop}, p.Hops[1:]...)
	}
}

// Apply changes a path the fault affects while it is active.
func (f Fault) Apply(p *Path) {
	switch f.Kind {
	case "site":
		p.Reachable, p.LossFrac = false, 1
	case "carrier":
		p.RTTms += f.DelayMs
		p.OneWayMs += f.DelayMs
		p.LossFrac = 1 - (1-p.LossFrac)*(1-f.LossFrac)
		// TCP's rate under loss (Mathis: MSS/RTT × 1.22/√p), never above the healthy rate
		if p.LossFrac > 0 {
			p.RateBps = min(p.RateBps, 1448*8/(p.RTTms/1000)*1.22/math.Sqrt(p.LossFrac))
		}
	}
}

func (f Fault) String() string { return f.spec }
