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
	// " 1:  10.77.1.1    0.044ms", " 2?: [LOCALHOST]  pmtu 1500", " 3:  no reply"
	reTPHop = regexp.MustCompile(`^(\d{1,3})(\??):\s+(.*)$`)
	reTPRTT = regexp.MustCompile(`^(\d+(?:\.\d+)?)ms$`)
	// What tracepath prints that the sample does not keep: the summary and the path MTU.
	reTPIgnore = regexp.MustCompile(`^(?:Resume: .*|Too many hops: .*|pmtu \d+)$`)
	reTPError  = regexp.MustCompile(`^(?:tracepath6?: |NET ERROR)`)
)

// ParseTracepath imports the output of iputils tracepath (or tracepath6), stdout then
// stderr, as one path sample with tool "tracepath". Every "N:" line is one probe at TTL N
// (tracepath prints a TTL once per probe): "no reply" and "send failed" are `*`, an annotation
// (!H, !N, !P, !A) stays with its answer, "reached" makes reached true, "asymm N" and
// "pmtu N" are not kept, nor are the [LOCALHOST] and Resume lines. "???" (tracepath could
// not name the router) is an answer with its RTT and a null address. Tracepath prints no
// target and no clock: the target is m.Target (dst_addr when it is an address) and m.Start is
// required.
func ParseTracepath(out []byte, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	ts, err := m.StartMS()
	if err != nil {
		return nil, err
	}
	p := sample.NewPath(m.Src, m.Dst, m.ProbeID, m.RunID, ts)
	p.Tool = "tracepath"
	if net.ParseIP(m.Target) != nil {
		a := m.Target
		p.DstAddr = &a
	}
	tp := &tpText{p: p}
	if err := probekit.EachLine(out, tp.line); err != nil {
		return nil, err
	}
	if len(tp.msgs) > 0 {
		p.Error = probekit.RunError(strings.Join(tp.msgs, "\n"))
	}
	if len(p.Hops) == 0 && p.Error == nil {
		return nil, &probekit.LineError{Line: 1, Msg: "no tracepath hops and no error message: nothing to import"}
	}
	finish(p, m, q)
	p.Reached = p.Reached || tp.reached
	return []sample.Sample{p}, nil
}

type tpText struct {
	p       *sample.Path
	msgs    []string
	reached bool
	lines   int // meaningful lines so far
}

func (tp *tpText) line(l probekit.TextLine) error {
	t := l.Text
	if tp.lines++; tp.lines == 1 && commandLine(t, "tracepath", "tracepath6") {
		return nil // a capture that begins with the command that printed it
	}
	if reTPIgnore.MatchString(t) {
		return nil
	}
	if reTPError.MatchString(t) {
		if len(tp.msgs) < 8 {
			tp.msgs = append(tp.msgs, t)
		}
		return nil
	}
	mm := reTPHop.FindStringSubmatch(t)
	if mm == nil {
		return l.Errorf("not a line of tracepath output")
	}
	rest := mm[3]
	if mm[2] == "?" && strings.HasPrefix(rest, "[LOCALHOST]") {
		return nil
	}
	ttl, _ := strconv.Atoi(mm[1])
	if ttl < 1 || ttl > 255 {
		return l.Errorf("TTL %d is out of range", ttl)
	}
	hop := tp.hop(ttl)
	if len(hop.Probes) == maxProbes {
		return l.Errorf("more than %d answers for hop %d", maxProbes, ttl)
	}
	pr, err := tp.probe(l, rest)
	if err != nil {
		return err
	}
	hop.Probes = append(hop.Probes, pr)
	return nil
}

// hop is the hop of TTL ttl, added in its place. A reply that comes late (seconds after its
// probe, while tracepath probes further) is printed with its own TTL after higher ones:
// " 6:  no reply", then " 3:  71.148.149.0  12000.559ms". TTLs are at most 255: the search
// is bounded.
func (tp *tpText) hop(ttl int) *sample.Hop {
	hops := tp.p.Hops
	i := len(hops)
	for i > 0 && hops[i-1].TTL > ttl {
		i--
	}
	if i == 0 || hops[i-1].TTL != ttl {
		tp.p.Hops = append(hops[:i], append([]sample.Hop{{TTL: ttl}}, hops[i:]...)...)
		return &tp.p.Hops[i]
	}
	return &tp.p.Hops[i-1]
}

// probe reads "ADDR RTTms [annotation|reached|asymm N|pmtu N]…", "NAME (ADDR) RTTms …" (-b),
// "NAME RTTms …" (neither -n nor -b: the name alone, the address unknown), "no reply" or
// "send failed".
func (tp *tpText) probe(l probekit.TextLine, rest string) (sample.HopProbe, error) {
	var pr sample.HopProbe
	if rest == "no reply" || rest == "send failed" {
		return pr, nil
	}
	f := strings.Fields(rest)
	i := 1
	switch {
	case f[0] == "???":
	case len(f) > 1 && strings.HasPrefix(f[1], "(") && strings.HasSuffix(f[1], ")") && len(f[1]) > 2:
		a, n := f[1][1:len(f[1])-1], f[0]
		pr.Addr = &a
		if n != a && n != "???" {
			pr.Name = &n
		}
		i = 2
	case isIP(f[0]):
		a := f[0]
		pr.Addr = &a
	case probekit.ValidHost(f[0]) && len(f) > 1 && (reTPRTT.MatchString(f[1]) || f[1] == "asymm"):
		n := f[0]
		pr.Name = &n
	default:
		return pr, l.ErrorAtToken(f[0], "neither an address, \"no reply\" nor \"???\"")
	}
	for ; i < len(f); i++ {
		tok := f[i]
		switch {
		case reTPRTT.MatchString(tok) && pr.RTTMs == nil:
			v, err := strconv.ParseFloat(reTPRTT.FindStringSubmatch(tok)[1], 64)
			if err != nil || v > 1e7 {
				return pr, l.ErrorAtToken(tok, "RTT out of range")
			}
			pr.RTTMs = &v
		case tok == "reached":
			tp.reached = true
		case (tok == "asymm" || tok == "pmtu") && i+1 < len(f):
			if _, err := strconv.Atoi(f[i+1]); err != nil {
				return pr, l.ErrorAtToken(tok, "%s without a number", tok)
			}
			i++
		case reAnnotation.MatchString(tok) && pr.Addr != nil:
			a := tok
			pr.Annotation = &a
		default:
			return pr, l.ErrorAtToken(tok, "not part of a tracepath hop")
		}
	}
	return pr, nil
}
