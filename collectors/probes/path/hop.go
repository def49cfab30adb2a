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
	reAnnotation = regexp.MustCompile(`^!([A-Za-z]|[0-9]+|<[0-9]+>)?$`)
	reASN        = regexp.MustCompile(`^\[(?:AS(\d+)(?:/AS\d+)*|\*)\]$`)
	reRTT        = regexp.MustCompile(`^\d+(?:\.\d+)?$`)
)

// maxProbes is the schemas' limit of answers per hop.
const maxProbes = 32

// parseHop reads the answers after a hop's TTL. Traceroute prints an address (with -n) or
// "name (address)" whenever it differs from the previous answer's, then "RTT ms" per answer,
// each optionally followed by an ICMP annotation (!H, !X, !<10>…) or an AS tag ([AS1234]),
// and "*" for a query that got no answer. Several addresses on one line are several routers
// at that TTL (per-packet or per-flow load balancing).
func parseHop(l probekit.Line, tokens []string) ([]sample.HopProbe, error) {
	var probes []sample.HopProbe
	var addr, name *string
	var asn *int64
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
				return nil, l.Errorf("an RTT (%s ms) with no address before it", tok)
			}
			rtt, err := strconv.ParseFloat(tok, 64)
			if err != nil || rtt > 1e7 {
				return nil, l.Errorf("RTT %q out of range", tok)
			}
			probes = append(probes, sample.HopProbe{Addr: addr, Name: name, RTTMs: &rtt, ASN: asn})
			i++ // the "ms"
		case strings.HasPrefix(tok, "!"):
			if !reAnnotation.MatchString(tok) || len(probes) == 0 || probes[len(probes)-1].Addr == nil {
				return nil, l.Errorf("annotation %q does not follow an answer", tok)
			}
			a := tok
			probes[len(probes)-1].Annotation = &a
		case reASN.MatchString(tok):
			asn = nil
			if m := reASN.FindStringSubmatch(tok); m[1] != "" {
				if v, err := strconv.ParseInt(m[1], 10, 64); err == nil {
					asn = &v
				}
			}
			for j := len(probes) - 1; j >= 0 && probes[j].Addr != nil && addr != nil && *probes[j].Addr == *addr; j-- {
				probes[j].ASN = asn
			}
		case strings.HasPrefix(tok, "(") && strings.HasSuffix(tok, ")") && len(tok) > 2:
			a := tok[1 : len(tok)-1]
			addr, name, asn = &a, nil, nil
		case strings.HasPrefix(next, "(") && strings.HasSuffix(next, ")") && len(next) > 2:
			a, n := next[1:len(next)-1], tok
			addr, name, asn = &a, nil, nil
			if n != a {
				name = &n
			}
			i++
		case tok == "ms":
			return nil, l.Errorf(`"ms" with no RTT before it`)
		case net.ParseIP(strings.SplitN(tok, "%", 2)[0]) != nil:
			a := tok
			addr, name, asn = &a, nil, nil
		default:
			return nil, l.Errorf("%q is neither an address, an RTT, '*' nor an annotation", tok)
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
