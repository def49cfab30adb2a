package path

import (
	"net"
	"regexp"
	"strconv"
	"strings"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

var (
	// traceroute to NAME (ADDR), 30 hops max, 60 byte packets   Linux, BSD, macOS, BusyBox
	// traceroute6 to NAME (ADDR) from SRC, 30 hops max, …       Linux and BSD traceroute6
	reHeader = regexp.MustCompile(`^traceroute6? to (\S+) \(([^)\s]+)\)(?: from \S+)?, (\d+) hops max\b`)
	// traceroute from SRC to DST                                scamper's text output
	reScamper = regexp.MustCompile(`^traceroute from \S+ to (\S+)$`)
	// traceroute [(SRC:SPORT) -> (DST:DPORT)], protocol udp, algo hopbyhop, duration 3 s
	reParis = regexp.MustCompile(`^traceroute \[\(\S*:\d+\) -> \(([^)\s]+):\d+\)\], protocol \w+, algo \w+`)
	reTTL   = regexp.MustCompile(`^\d{1,3}$`)
	// reMessage: what traceroute says when it stops: "connect: No route to host",
	// "host: Name or service not known", "Cannot handle "host" cmdline arg …".
	reMessage = regexp.MustCompile(`^(?:[A-Za-z][\w.-]*: \S|Cannot handle |Bad option |Extra arg )`)
	// reWarning: what BSD and macOS traceroute say and go on: "traceroute: Warning:
	// example.org has multiple addresses; using 192.0.2.1". Not a failure.
	reWarning = regexp.MustCompile(`^traceroute6?: [Ww]arning: `)
	// paris-traceroute's MPLS line under a hop: "MPLS Label 24010 TTL=1 | 16".
	reMPLS = regexp.MustCompile(`^MPLS Label \d+`)
)

// Requested is what the probe asked traceroute for, used where the output is silent.
type Requested struct {
	Queries int
	MaxTTL  int
}

// maxHopTokens bounds the words of one hop, wrapped lines included: 32 answers with a name,
// an address, an AS, an RTT, "ms" and an annotation each.
const maxHopTokens = 32 * 8

// ParseTraceroute imports the text of a traceroute run (stdout followed by stderr) as one path
// sample. It reads Linux traceroute (with or without -n, -A, IPv4 or IPv6), BSD and macOS
// traceroute (a "Warning: … has multiple addresses" line, `-a`'s [AS…] before each address,
// a changed address on a line of its own), BusyBox traceroute, scamper's trace text and
// paris-traceroute (tool "scamper", "paris-traceroute"; its !T<ttl>, {ipid} and [ttl] marks
// and MPLS lines are not kept). A line broken inside a hop (as reports wrap them) is joined
// to its hop. reached says whether the destination address answered. When traceroute stopped
// before any hop (unknown host, no route…) the sample carries the error; when it printed
// nothing recognisable the input is refused, naming line and column. Traceroute prints no
// clock: m.Start is required. Time is linear in the input, memory bounded by the 255 hops.
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
	tr := &trText{p: p}
	if err := probekit.EachLine(out, tr.line); err != nil {
		return nil, err
	}
	if err := addHops(p, tr.hops); err != nil {
		return nil, err
	}
	if len(tr.msgs) > 0 {
		p.Error = probekit.RunError(strings.Join(tr.msgs, "\n"))
	}
	if len(p.Hops) == 0 && p.Error == nil {
		return nil, &probekit.LineError{Line: 1, Msg: "no traceroute hops and no error message: nothing to import"}
	}
	finish(p, m, q)
	return []sample.Sample{p}, nil
}

// trText collects the lines of one traceroute run.
type trText struct {
	p      *sample.Path
	header bool
	msgs   []string
	hops   []hopLine
	lines  int // meaningful lines so far
}

func (tr *trText) line(l probekit.TextLine) error {
	t := l.Text
	if tr.lines++; tr.lines == 1 && commandLine(t, "traceroute", "traceroute6", "paris-traceroute") {
		return nil // a capture that begins with the command that printed it
	}
	switch {
	case strings.HasPrefix(t, "traceroute ") || strings.HasPrefix(t, "traceroute6 "):
		return tr.headerLine(l)
	case reWarning.MatchString(t):
	case reMessage.MatchString(t):
		if len(tr.msgs) < 8 {
			tr.msgs = append(tr.msgs, t)
		}
	case !tr.header:
		return l.Errorf("not a line of traceroute output before its \"traceroute to …\" header")
	case reMPLS.MatchString(t):
	case isHopStart(t):
		if len(tr.hops) == 255 {
			return l.Errorf("more than 255 hops")
		}
		f := strings.Fields(t)
		tr.hops = append(tr.hops, hopLine{line: l, ttl: f[0], tokens: f[1:]})
	case len(tr.hops) > 0:
		last := &tr.hops[len(tr.hops)-1]
		if len(last.tokens)+len(strings.Fields(t)) > maxHopTokens {
			return l.Errorf("hop %s goes on for more than %d words", last.ttl, maxHopTokens)
		}
		last.tokens = append(last.tokens, strings.Fields(t)...)
	default:
		return l.Errorf("not a line of traceroute output")
	}
	return nil
}

func (tr *trText) headerLine(l probekit.TextLine) error {
	t, p := l.Text, tr.p
	var target, addr, maxTTL string
	switch {
	case reHeader.MatchString(t):
		hm := reHeader.FindStringSubmatch(t)
		target, addr, maxTTL = hm[1], hm[2], hm[3]
	case reScamper.MatchString(t):
		target = reScamper.FindStringSubmatch(t)[1]
		addr, p.Tool = target, "scamper"
	case reParis.MatchString(t):
		target = reParis.FindStringSubmatch(t)[1]
		addr, p.Tool = target, "paris-traceroute"
	default:
		return l.Errorf("a traceroute header of no known traceroute")
	}
	if tr.header {
		return l.Errorf("a second traceroute starts here: import one run per file")
	}
	tr.header = true
	p.Target, p.DstAddr = &target, &addr
	if maxTTL != "" {
		n, err := strconv.Atoi(maxTTL)
		if err != nil || n < 1 || n > 255 {
			return l.ErrorAtToken(maxTTL+" hops", "hops max is out of range")
		}
		p.MaxTTL = sample.I64(int64(n))
	}
	return nil
}

// isHopStart tells a hop ("12  host (addr)  1.2 ms") from the rest of a wrapped one
// ("190.954 ms  190.870 ms", "ms  185.972 ms").
func isHopStart(t string) bool {
	f := strings.Fields(t)
	return len(f) >= 2 && reTTL.MatchString(f[0]) && f[1] != "ms"
}

type hopLine struct {
	line   probekit.TextLine
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

// commandLine: the command line a capture begins with ("$ traceroute -n host"), not the
// tools' own headers: "traceroute to host (addr), 30 hops max", scamper's "traceroute from
// A to B", paris-traceroute's "traceroute [(A:p) -> (B:p)]".
func commandLine(t string, programs ...string) bool {
	return probekit.CommandLine(t, programs...) && !reHeaderWord.MatchString(t)
}

var reHeaderWord = regexp.MustCompile(`^(?:\S*/)?(?:traceroute6?|tracepath6?|paris-traceroute) (?:to |from |\[)`)
