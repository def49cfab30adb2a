package path

import (
	"net"
	"regexp"
	"strconv"
	"strings"

	"longhaul/collectors/probes/probekit"
	"longhaul/collectors/sample"
)

var (
	reHeader = regexp.MustCompile(`^traceroute6? to (\S+) \(([^)\s]+)\)(?: from \S+)?, (\d+) hops max\b`)
	reTTL    = regexp.MustCompile(`^\d{1,3}$`)
	// reMessage: what traceroute says when it stops: "connect: No route to host",
	// "host: Name or service not known", "Cannot handle "host" cmdline arg …".
	reMessage = regexp.MustCompile(`^(?:[A-Za-z][\w.-]*: \S|Cannot handle |Bad option |Extra arg )`)
)

// Requested is what the probe asked traceroute for, used where the output is silent.
type Requested struct {
	Queries int
	MaxTTL  int
}

// ParseTraceroute imports the output of Linux traceroute (with or without -n, IPv4 or IPv6,
// stdout followed by stderr) as one path sample. A line broken inside a hop (as reports wrap
// them) is joined to its hop. reached says whether the destination address answered. When
// traceroute stopped before any hop (unknown host, no route…) the sample carries the error;
// when it printed nothing recognisable the input is refused. Traceroute prints no clock:
// m.Start is required.
func ParseTraceroute(out []byte, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	ts, err := m.StartMS()
	if err != nil {
		return nil, err
	}
	p := sample.NewPath(m.Src, m.Dst, m.ProbeID, m.RunID, ts)
	p.Tool = "traceroute"
	var msgs []string
	var hopLines []hopLine
	header := false
	for _, l := range probekit.Lines(out) {
		t := l.Text
		switch hm := reHeader.FindStringSubmatch(t); {
		case hm != nil:
			if header {
				return nil, l.Errorf("a second traceroute starts here: import one run per file")
			}
			header = true
			target, addr := hm[1], hm[2]
			p.Target, p.DstAddr = &target, &addr
			n, err := strconv.Atoi(hm[3])
			if err != nil || n < 1 || n > 255 {
				return nil, l.Errorf("%s hops max is out of range", hm[3])
			}
			p.MaxTTL = sample.I64(int64(n))
		case reMessage.MatchString(t):
			msgs = append(msgs, t)
		case !header:
			return nil, l.Errorf("not a line of traceroute output before its \"traceroute to …\" header: %q", t)
		case isHopStart(t):
			f := strings.Fields(t)
			hopLines = append(hopLines, hopLine{line: l, ttl: f[0], tokens: f[1:]})
		case len(hopLines) > 0:
			last := &hopLines[len(hopLines)-1]
			last.tokens = append(last.tokens, strings.Fields(t)...)
		default:
			return nil, l.Errorf("not a line of traceroute output: %q", t)
		}
	}
	if err := addHops(p, hopLines); err != nil {
		return nil, err
	}
	if len(msgs) > 0 {
		p.Error = probekit.RunError(strings.Join(msgs, "\n"))
	}
	if len(p.Hops) == 0 && p.Error == nil {
		return nil, &probekit.LineError{Line: 1, Msg: "no traceroute hops and no error message: nothing to import"}
	}
	finish(p, m, q)
	return []sample.Sample{p}, nil
}

// isHopStart tells a hop ("12  host (addr)  1.2 ms") from the rest of a wrapped one
// ("190.954 ms  190.870 ms", "ms  185.972 ms").
func isHopStart(t string) bool {
	f := strings.Fields(t)
	return len(f) >= 2 && reTTL.MatchString(f[0]) && f[1] != "ms"
}

type hopLine struct {
	line   probekit.Line
	ttl    string
	tokens []string
}

func addHops(p *sample.Path, lines []hopLine) error {
	prev := 0
	for _, h := range lines {
		ttl, err := strconv.Atoi(h.ttl)
		if err != nil || ttl < 1 || ttl > 255 || ttl <= prev {
			return h.line.Errorf("hop %s does not follow hop %d", h.ttl, prev)
		}
		prev = ttl
		probes, err := parseHop(h.line, h.tokens)
		if err != nil {
			return err
		}
		p.Hops = append(p.Hops, sample.Hop{TTL: ttl, Probes: probes})
	}
	return nil
}

// finish fills what is derived: the target when only the probe knows it, the query count
// (asked, else the most answers any hop shows) and whether the destination answered.
func finish(p *sample.Path, m probekit.Meta, q Requested) {
	if p.Target == nil && m.Target != "" {
		t := m.Target
		p.Target = &t
	}
	if p.MaxTTL == nil && q.MaxTTL >= 1 && q.MaxTTL <= 255 {
		p.MaxTTL = sample.I64(int64(q.MaxTTL))
	}
	queries := q.Queries
	for _, h := range p.Hops {
		if q.Queries == 0 && len(h.Probes) > queries {
			queries = len(h.Probes)
		}
	}
	if queries >= 1 && queries <= maxProbes {
		p.Queries = sample.I64(int64(queries))
	}
	p.Reached = reached(p)
}

func reached(p *sample.Path) bool {
	if p.DstAddr == nil {
		return false
	}
	dst := net.ParseIP(*p.DstAddr)
	for _, h := range p.Hops {
		for _, pr := range h.Probes {
			if pr.Addr == nil {
				continue
			}
			if a := net.ParseIP(*pr.Addr); (a != nil && dst != nil && a.Equal(dst)) || strings.EqualFold(*pr.Addr, *p.DstAddr) {
				return true
			}
		}
	}
	return false
}
