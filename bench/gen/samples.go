package main

import (
	"math"
	"math/rand/v2"
	"strconv"

	"longhaul/ingest/sample"
)

// Synthetic raw samples built from the collectors' own types (ingest/sample), so the
// benchmark cannot drift from the contract: iperf3 TCP interval records, run summaries and
// traceroute paths with a fixed number of hops. The rand calls and their order are those of the
// hand-written generator this replaced, so a seed gives the same figures.

func linkDst(i int) string { return "dst-" + strconv.Itoa(i) }

// linkAddr is the link's destination address, 10.<link/250>.<link%250>.1.
func linkAddr(link int) string {
	return "10." + strconv.Itoa(link/250) + "." + strconv.Itoa(link%250) + ".1"
}

// baseBps gives every link its own capacity, spread over three decades (10 Mbit/s .. 10 Gbit/s).
func baseBps(link int) float64 { return 1e7 * math.Pow(1000, float64(link%997)/997) }

// round keeps d decimals: the figures a tool prints, and messages of the size it writes.
func round(v float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

func boolp(v bool) *bool { return &v }

// interval is second sec of a one-minute run of link: bps ±30 % noise.
func interval(src string, link int, ts int64, sec int, bps float64, r *rand.Rand) *sample.Throughput {
	bps *= 0.7 + 0.6*r.Float64()
	t := sample.NewThroughput(src, linkDst(link), "tcp-default", "r-"+strconv.FormatInt(ts/60000, 10), sample.RecordInterval, ts)
	t.Tool, t.ToolVersion = "iperf3", sample.Str("3.12")
	t.Protocol, t.Direction = "tcp", "forward"
	t.Streams, t.Congestion = sample.I64(1), sample.Str("cubic")
	t.StartS, t.EndS, t.Omitted = sample.F64(float64(sec)), sample.F64(float64(sec+1)), boolp(false)
	t.Bytes = sample.I64(int64(bps / 8))
	t.BitsPerSecond = sample.F64(round(bps, 1))
	t.Retransmits = sample.I64(int64(r.IntN(5)))
	t.SndCwndBytes = sample.I64(65160)
	t.RTTMs = sample.F64(round(150+20*r.Float64(), 1))
	t.RTTVarMs = sample.F64(12.1)
	return t
}

// summary is a 10 s run's summary at bps ±15 %.
func summary(src string, link int, ts int64, bps float64, r *rand.Rand) *sample.Throughput {
	bps *= 0.85 + 0.3*r.Float64()
	t := sample.NewThroughput(src, linkDst(link), "tcp-summary", "s-"+strconv.FormatInt(ts, 10), sample.RecordSummary, ts)
	t.Tool, t.Target, t.Port = "iperf3", sample.Str("192.0.2.1"), sample.I64(5201)
	t.Protocol, t.Direction, t.Streams = "tcp", "forward", sample.I64(1)
	t.DurationS, t.StartS, t.EndS = sample.F64(10), sample.F64(0), sample.F64(10)
	t.Bytes = sample.I64(int64(bps * 10 / 8))
	t.BitsPerSecond = sample.F64(round(bps, 1))
	t.Retransmits = sample.I64(int64(r.IntN(50)))
	return t
}

// path is a traceroute of hops hops, 3 queries each, the last hop the link's address.
func path(src string, link, hops int, ts int64, r *rand.Rand) *sample.Path {
	p := sample.NewPath(src, linkDst(link), "path", "p-"+strconv.FormatInt(ts, 10), ts)
	p.Tool, p.DstAddr = "traceroute", sample.Str(linkAddr(link))
	p.MaxTTL, p.Queries, p.Reached = sample.I64(30), sample.I64(3), true
	p.Hops = make([]sample.Hop, 0, hops)
	for h := 1; h <= hops; h++ {
		addr := "10.255." + strconv.Itoa(h) + ".1"
		if h == hops {
			addr = linkAddr(link)
		}
		hop := sample.Hop{TTL: h, Probes: make([]sample.HopProbe, 3)}
		for q := range hop.Probes {
			hop.Probes[q] = sample.HopProbe{Addr: sample.Str(addr), RTTMs: sample.F64(round(float64(h)*10+r.Float64(), 2))}
		}
		p.Hops = append(p.Hops, hop)
	}
	return p
}
