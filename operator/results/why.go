package results

import (
	"fmt"
	"strings"
	"time"

	"longhaul/operator/dashboards"
	"longhaul/operator/render"
)

// An empty panel says why, with figures from InfluxDB: what its query needs (dashboards.NeedOf,
// read from the query) against what there is so far. The functions here only word it; the
// report (report.go) counts.

// Scope is what a panel was drawn for: one link (Src → Dst) or the whole mesh, over a range.
type Scope struct {
	Src, Dst string
	Sites    []string // the links from or to them (a report or view narrowed to some sites)
	Range    dashboards.Range
}

func (s Scope) of() string {
	switch {
	case s.Src != "":
		return fmt.Sprintf(" for %s → %s", s.Src, s.Dst)
	case len(s.Sites) == 0:
		return ""
	case len(s.Sites) == 1:
		return " for site " + s.Sites[0]
	case len(s.Sites) <= 3:
		return " for sites " + strings.Join(s.Sites, ", ")
	}
	return fmt.Sprintf(" for %d sites (%s, …)", len(s.Sites), strings.Join(s.Sites[:3], ", "))
}

func (s Scope) last() string { return "in the last " + Span(s.Range.To.Sub(s.Range.From)) }

// Span writes a range's length the way --since takes it: 30m, 3h, 24h, 7d.
func Span(d time.Duration) string {
	switch {
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d >= time.Minute:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

var protocolNames = map[string]string{"tcp": "TCP", "udp": "UDP", "icmp": "ping", "path": "traceroute", "owd": "one-way latency (pScheduler)"}

// What names what a query reads: "TCP samples", "UDP or ping samples", "alert events".
func What(n dashboards.Need) string {
	switch n.Measurement {
	case "events":
		switch {
		case len(n.Kinds) > 0:
			return strings.Join(n.Kinds, " or ") + " events"
		case n.AlertsOnly:
			return "alert events"
		}
		return "events"
	case "path_hops":
		return "traceroute hops"
	}
	var names []string
	for _, p := range n.Protocols {
		if name, ok := protocolNames[p]; ok {
			p = name
		}
		names = append(names, p)
	}
	if len(names) == 0 {
		return "samples"
	}
	return strings.Join(names, " or ") + " samples"
}

// NoSamples: the query found nothing at all in the range.
func NoSamples(n dashboards.Need, s Scope) *render.Why {
	return render.Empty("no %s%s %s", What(n), s.of(), s.last())
}

// MovingAverage: a moving average of N over an inner series that has `have` points so far.
func MovingAverage(n dashboards.Need, have int, s Scope) *render.Why {
	if have == 0 {
		return NoSamples(n, s)
	}
	return render.Learning("learning: moving average of %d needs %d points: %d so far (%s%s)",
		n.Points, n.Points, have, What(n), s.of())
}

// Progress is how far the throughput collapse detector is with a link's baseline: the runs its
// newest baseline holds and the runs it needs before it judges (Runs 0: it published none).
type Progress struct {
	Src, Dst    string
	Runs, Needs int
}

// noDetectorBaseline: why a link the collapse detector published no baseline for has none.
const noDetectorBaseline = "no baseline from the collapse detector yet (it publishes one after each successful run it takes)"

// DetectorBaseline: the collapse detector has no ready baseline for a link that has `p` so far.
func DetectorBaseline(p Progress) string {
	if p.Runs == 0 {
		return "learning baseline: " + noDetectorBaseline
	}
	return fmt.Sprintf("learning baseline: the collapse detector has %d of the %d runs it judges with", p.Runs, p.Needs)
}

// DetectorBaselines sums up the links whose collapse detector's baseline is not ready, of
// `links` in the panel.
func DetectorBaselines(learning []Progress, links int) *render.Why {
	if len(learning) == 1 && links == 1 {
		return &render.Why{Learning: true, Text: DetectorBaseline(learning[0])}
	}
	var runs, needs []int
	none := 0
	for _, p := range learning {
		if p.Runs == 0 {
			none++
			continue
		}
		runs, needs = append(runs, p.Runs), append(needs, p.Needs)
	}
	text := fmt.Sprintf("learning baseline for %d of %d links: ", len(learning), links)
	switch {
	case len(runs) == 0:
		return render.Learning("%s%s", text, noDetectorBaseline)
	case none > 0:
		return render.Learning("%sthe collapse detector has %s of the %s runs it judges with, %d without a baseline from it yet",
			text, span(runs), span(needs), none)
	}
	return render.Learning("%sthe collapse detector has %s of the %s runs it judges with", text, span(runs), span(needs))
}

// span writes the range of some counts: "3", "1–3".
func span(ns []int) string {
	lo, hi := ns[0], ns[0]
	for _, n := range ns[1:] {
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}
