package path

import (
	"fmt"
	"math"
	"net"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// psHop is one hop of a pScheduler trace path; an empty object is a query with no answer. The
// schema requires none of its fields; mtu (tracepath's path MTU) has no place in a sample and is
// not read.
type psHop struct {
	IP       *string `json:"ip"`
	Hostname *string `json:"hostname"`
	RTT      *string `json:"rtt"` // ISO 8601 duration
	Error    *string `json:"error"`
	AS       *psAS   `json:"as"`
}

type psTraceResult struct {
	Succeeded bool      `json:"succeeded"`
	Error     *string   `json:"error"`
	Paths     [][]psHop `json:"paths"`
}

type psTraceSpec struct {
	Dest     string `json:"dest"`
	Hops     int64  `json:"hops"`
	FirstTTL int64  `json:"first-ttl"`
}

// icmpAnnotation turns pScheduler's names of ICMP errors (pscheduler icmperror) back into the
// annotation traceroute prints.
var icmpAnnotation = map[string]string{
	"host-unreachable":                                "!H",
	"net-unreachable":                                 "!N",
	"protocol-unreachable":                            "!P",
	"source-route-failed":                             "!S",
	"fragmentation-needed-and-df-set":                 "!F",
	"communication-administratively-prohibited":       "!X",
	"host-precedence-violation":                       "!V",
	"precedence-cutoff-in-effect":                     "!C",
	"port-unreachable":                                "!<3>",
	"destination-network-unknown":                     "!<6>",
	"destination-host-unknown":                        "!<7>",
	"source-host-isolated":                            "!<8>",
	"destination-network-administratively-prohibited": "!<9>",
	"destination-host-administratively-prohibited":    "!<10>",
	"network-unreachable-for-type-of-service":         "!<11>",
	"icmp-destination-host-unreachable-tos":           "!<12>",
}

// ParsePScheduler imports a pScheduler archive message of a trace test as one path sample.
// Hop i of every path is TTL first-ttl+i; several paths are several queries per TTL. RTTs are
// ISO 8601 durations; ts is schedule.start; src and dst default to the test's source (or first
// participant) and dest; the run id is the message's id.
func ParsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	return probekit.ParseArchive(input, m, FromArchive)
}

// FromArchive is ParsePScheduler of a message decoded already (probekit.ArchiveImporter).
func FromArchive(a *probekit.Archive, input []byte, m probekit.Meta) ([]sample.Sample, error) {
	ts, err := a.Open(input, &m, "trace")
	if err != nil {
		return nil, err
	}
	var spec psTraceSpec
	var res psTraceResult
	if err := a.Decode(&spec, &res); err != nil {
		return nil, err
	}
	p := sample.NewPath(m.Src, m.Dst, m.ProbeID, m.RunID, ts)
	p.Tool = "pscheduler"
	if spec.Dest != "" {
		d := spec.Dest
		p.Target = &d
		if net.ParseIP(d) != nil {
			p.DstAddr = &d
		}
	}
	if spec.Hops >= 1 && spec.Hops <= 255 {
		p.MaxTTL = sample.I64(spec.Hops)
	}
	if !res.Succeeded {
		msg := "the pScheduler run did not succeed"
		if res.Error != nil && *res.Error != "" {
			msg = *res.Error
		}
		p.Error = probekit.RunError(msg)
		return []sample.Sample{p}, nil
	}
	if err := psHops(p, res.Paths, spec.FirstTTL); err != nil {
		return nil, err
	}
	p.Reached = reached(p)
	return []sample.Sample{p}, nil
}

// psHops fills the hops from the paths. No path at all (the schema allows "paths": []) leaves
// the sample without hops.
func psHops(p *sample.Path, paths [][]psHop, firstTTL int64) error {
	if len(paths) > maxProbes {
		return probekit.PathError("result.paths", "%d paths: want at most %d", len(paths), maxProbes)
	}
	if len(paths) == 0 {
		return nil
	}
	if firstTTL < 1 {
		firstTTL = 1
	}
	longest := 0
	for _, path := range paths {
		longest = max(longest, len(path))
	}
	if firstTTL+int64(longest)-1 > 255 {
		return probekit.PathError("result.paths", "more than 255 hops")
	}
	for i := 0; i < longest; i++ {
		hop := sample.Hop{TTL: int(firstTTL) + i}
		for q, path := range paths {
			if i >= len(path) {
				continue
			}
			pr, err := psProbe(fmt.Sprintf("result.paths[%d][%d]", q, i), path[i])
			if err != nil {
				return err
			}
			hop.Probes = append(hop.Probes, pr)
		}
		p.Hops = append(p.Hops, hop)
	}
	p.Queries = sample.I64(int64(len(paths)))
	return nil
}

// psProbe reads one hop object. Each field stands alone: a hop may carry a hostname, an rtt or
// an error without an ip, and what it carries is kept.
func psProbe(path string, h psHop) (sample.HopProbe, error) {
	var pr sample.HopProbe
	pr.Addr, pr.Name = h.IP, h.Hostname
	if h.RTT != nil {
		s, err := probekit.ISODurationSeconds(*h.RTT)
		if err != nil {
			return pr, probekit.PathError(path+".rtt", "%v", err)
		}
		ms := math.Round(s*1e9) / 1e6 // to the nanosecond: no float noise from the seconds
		pr.RTTMs = &ms
	}
	if h.Error != nil {
		a, ok := icmpAnnotation[*h.Error]
		if !ok {
			return pr, probekit.PathError(path+".error", "%q is not an ICMP error pScheduler names", *h.Error)
		}
		pr.Annotation = &a
	}
	if h.AS != nil && h.AS.Number != nil && *h.AS.Number >= 0 {
		pr.ASN = h.AS.Number.Ptr()
	}
	return pr, nil
}
