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
	reAnnotation = regexp.MustCompile(`^!([A-Za-z]|[0-9]+|<[0-9]+>)?$`)
	reASN        = regexp.MustCompile(`^\[(?:AS(\d+)(?:/AS\d+)*|\*)\]$`)
	reRTT        = regexp.MustCompile(`^\d+(?:\.\d+)?$`)
	// reParisMark: what paris-traceroute adds after an RTT and the schema has no field for:
	// the reply's TTL when it is not 1 (!T2), an unknown reply type (!?), the IP id ({1234})
	// and the probe's TTL ([3]).
	reNeedFrag  = regexp.MustCompile(`^!F-\d+$`)
	reParisMark = regexp.MustCompile(`^(?:!T\d+|!\?|\{\d+\}|\[\d+(?:,\d+)*\])$`)
)

// maxProbes is the schemas' limit of answers per hop.
const maxProbes = 32

// parseHop reads the answers after a hop's TTL. Traceroute prints an address (with -n) or
// "name (address)" whenever it differs from the previous answer's, then "RTT ms" per answer,
// each optionally followed by an ICMP annotation (!H, !X, !<10>…), and "*" for a query that
// got no answer. An AS tag ([AS1234]) follows the address with Linux -A and precedes it with
// BSD and macOS -a; either way it belongs to that address's answers. Several addresses on one
// line (or on lines of their own, BSD) are several routers at that TTL (per-packet or
// per-flow load balancing).
func parseHop(l probekit.TextLine, tokens []string) ([]sample.HopProbe, error) {
	var probes []sample.HopProbe
	var addr, name *string
	var asn, pendingASN *int64
	for i := 0; i < len(tokens); i++ {
		tok := tokens[i]
		next := ""
		if i+1 < len(tokens) {
			next = tokens[i+1]
		}
		switch {
		case tok == "*":
			probes = append(probes, sample.HopProbe{})
		case next == "ms" && reRTT.MatchString(tok):
			if addr == nil {
				return nil, l.ErrorAtToken(tok, "an RTT with no address before it")
			}
			rtt, err := strconv.ParseFloat(tok, 64)
			if err != nil || rtt > 1e7 {
				return nil, l.ErrorAtToken(tok, "RTT out of range")
			}
			probes = append(probes, sample.HopProbe{Addr: addr, Name: name, RTTMs: &rtt, ASN: asn})
			i++ // the "ms"
		case strings.ContainsAny(tok[:1], "!{[") && reParisMark.MatchString(tok):
		case strings.HasPrefix(tok, "!"):
			if reNeedFrag.MatchString(tok) { // BSD: !F-<next-hop MTU>
				tok = "!F"
			}
			if !reAnnotation.MatchString(tok) || len(probes) == 0 || probes[len(probes)-1].Addr == nil {
				return nil, l.ErrorAtToken(tok, "annotation does not follow an answer")
			}
			a := tok
			probes[len(probes)-1].Annotation = &a
		case tok[0] == '[' && reASN.MatchString(tok):
			var v *int64
			if m := reASN.FindStringSubmatch(tok); m[1] != "" {
				if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
					v = &n
				}
			}
			if startsAddress(tokens[i+1:]) { // BSD -a: [AS2200] name (addr)
				pendingASN = v
				continue
			}
			asn = v
			for j := len(probes) - 1; j >= 0 && probes[j].Addr != nil && addr != nil && *probes[j].Addr == *addr; j-- {
				probes[j].ASN = asn
			}
		case strings.HasPrefix(tok, "(") && strings.HasSuffix(tok, ")") && len(tok) > 2:
			a := tok[1 : len(tok)-1]
			addr, name, asn, pendingASN = &a, nil, pendingASN, nil
		case strings.HasPrefix(next, "(") && strings.HasSuffix(next, ")") && len(next) > 2:
			a, n := next[1:len(next)-1], tok
			addr, name, asn, pendingASN = &a, nil, pendingASN, nil
			if n != a {
				name = &n
			}
			i++
		case tok == "ms":
			return nil, l.ErrorAtToken(tok, `"ms" with no RTT before it`)
		case isIP(tok):
			a := tok
			addr, name, asn, pendingASN = &a, nil, pendingASN, nil
		default:
			return nil, l.ErrorAtToken(tok, "neither an address, an RTT, '*' nor an annotation")
		}
		if len(probes) > maxProbes {
			return nil, l.Errorf("more than %d answers for one hop", maxProbes)
		}
	}
	if len(probes) == 0 {
		return nil, l.Errorf("a hop with no answer and no '*'")
	}
	return probes, nil
}

func isIP(tok string) bool { return net.ParseIP(strings.SplitN(tok, "%", 2)[0]) != nil }

// startsAddress says whether the words start an answer: an address, "(address)" or
// "name (address)".
func startsAddress(rest []string) bool {
	paren := func(s string) bool { return strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && len(s) > 2 }
	switch {
	case len(rest) == 0:
		return false
	case isIP(rest[0]), paren(rest[0]):
		return true
	}
	return len(rest) > 1 && paren(rest[1]) && rest[0] != "*" && !reRTT.MatchString(rest[0])
}
