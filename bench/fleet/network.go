package main

import (
	"fmt"
	"hash/fnv"
	"math"
	"time"
)

// Network is the simulated fleet's paths: for each directed pair a delay, a route of router
// hops, and what the faults active at a moment do to it. Every figure derives from the pair's
// names (a hash), so a run is the same whatever the order its results are made in.
type Network struct {
	Faults []Fault
}

// Path is one pair's state at a moment.
type Path struct {
	Hops      []string // router addresses, the destination last
	RTTms     float64  // round trip
	OneWayMs  float64  // source to destination
	LossFrac  float64  // of packets
	Reachable bool     // the destination answers
	RateBps   float64  // what a throughput test reaches
}

// hash64 is the stable hash of the parts.
func hash64(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// unit is a stable number in [0, 1) from the parts.
func unit(parts ...string) float64 {
	return float64(hash64(parts...)>>11) / float64(1<<53)
}

// baseRTTms is the pair's round trip when healthy: 4 to 300 ms, the same both ways (a site's
// distance from another), as a transcontinental fleet spreads.
func baseRTTms(src, dst string) float64 {
	a, b := src, dst
	if a > b {
		a, b = b, a
	}
	return 4 + 296*math.Pow(unit("rtt", a, b), 1.5)
}

// router is the address of a router on the way, by its role and place: a site's own border
// router (shared by every path from or to that site) or a carrier's hop between two regions.
func router(parts ...string) string {
	h := hash64(parts...)
	return fmt.Sprintf("10.%d.%d.%d", 64+h%64, (h>>8)%256, 1+(h>>16)%254)
}

// region groups hosts by the carrier they hang off: paths between the same regions share hops.
func region(host string) string { return fmt.Sprintf("r%d", hash64("region", host)%8) }

// hops is the healthy route: the source's border, 2 to 10 carrier hops between the two
// regions, the destination's border, the destination.
func hops(src, dst, dstAddr string) []string {
	rs, rd := region(src), region(dst)
	n := 2 + int(hash64("hops", rs, rd)%9)
	out := []string{router("border", src)}
	for i := range n {
		out = append(out, router("carrier", rs, rd, fmt.Sprint(i)))
	}
	return append(out, router("border", dst), dstAddr)
}

// At is the pair's path at t with the faults active then.
func (n Network) At(src, dst string, t time.Time) Path {
	rtt := baseRTTms(src, dst)
	p := Path{
		Hops: hops(src, dst, dst), RTTms: rtt, OneWayMs: rtt / 2, Reachable: true,
		// a 10 Gbit/s path's TCP rate falls with its delay (buffers and windows of real hosts)
		RateBps: math.Min(9.4e9, 2.5e11/rtt),
	}
	for _, f := range n.Faults {
		if f.Affects(src, dst) {
			f.Route(&p)
			if f.Active(t) {
				f.Apply(&p)
			}
		}
	}
	return p
}
