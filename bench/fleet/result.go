package main

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Result is one run as pScheduler's archivers send it (the run's envelope and its merged
// result: pscheduler-server's archiver input, as the golden inputs under probes/*/
// testdata/pscheduler keep it), for the stream's test type at start, on the network as it is.
func Result(s Stream, start time.Time, seq uint64, net Network) map[string]any {
	p := net.At(s.Src, s.Dst, start)
	task := fmt.Sprintf("%016x-%08x", hash64("task", s.Host, s.Task, s.Src, s.Dst), hash64("task2", s.Task, s.Src, s.Dst)>>32)
	run := fmt.Sprintf("%016x", hash64("run", task, strconv.FormatUint(seq, 10)))
	tool, version, dur, res := "", "1.0", s.Every, map[string]any{}
	switch s.Test {
	case "latencybg", "latency":
		tool, res = "powstream", latencyResult(s, p, seq)
		if s.Test == "latency" {
			tool = "owping"
		}
	case "trace":
		tool, version, dur, res = "traceroute", "2.1.2", 30*time.Second, traceResult(p)
	case "rtt":
		tool, dur, res = "ping", 10*time.Second, rttResult(s, p, seq)
	case "throughput":
		tool, version, dur, res = "iperf3", "3.12", s.Duration, throughputResult(s, p, seq)
	}
	return map[string]any{
		"id":           task + "-run-" + run,
		"schedule":     map[string]any{"start": start.UTC().Format(time.RFC3339), "duration": isoSeconds(dur.Seconds())},
		"test":         map[string]any{"type": s.Test, "spec": s.Spec},
		"tool":         map[string]any{"name": tool, "version": version},
		"participants": []string{s.Src, s.Dst},
		"result":       res,
		"task":         "https://" + s.Host + "/pscheduler/tasks/" + task,
		"run":          "https://" + s.Host + "/pscheduler/tasks/" + task + "/runs/" + run,
	}
}

// isoSeconds is an ISO 8601 duration of pScheduler's form: PT0.000123S.
func isoSeconds(s float64) string { return "PT" + strconv.FormatFloat(s, 'f', -1, 64) + "S" }

// jitter is a stable number in [-1, 1) for the run's seq and what.
func jitter(s Stream, seq uint64, what string) float64 {
	return 2*unit(what, s.Src, s.Dst, strconv.FormatUint(seq, 10)) - 1
}

// latencyResult is powstream's: the one-way delay histogram in ms with two decimals (the
// bucket-width 0.001 s of WLCG's tests) around the path's one-way delay.
func latencyResult(s Stream, p Path, seq uint64) map[string]any {
	sent := s.Packets
	lost := int(math.Round(float64(sent) * p.LossFrac))
	got := sent - lost
	hist := map[string]int{}
	for i := range min(got, 8) {
		// eight buckets a few tenths of a ms apart, the received packets spread over them
		d := p.OneWayMs + 0.05*float64(i) + 0.2*jitter(s, seq, "owd")
		n := got / 8
		if i < got%8 {
			n++
		}
		if n > 0 {
			hist[strconv.FormatFloat(max(d, 0.01), 'f', 2, 64)] += n
		}
	}
	res := map[string]any{
		"schema": 1, "succeeded": true, "packets-sent": sent, "packets-received": got,
		"packets-lost": lost, "packets-duplicated": 0, "packets-reordered": 0, "max-clock-error": 0.31,
		"histogram-latency": hist, "histogram-ttl": map[string]int{strconv.Itoa(255 - len(p.Hops)): got},
	}
	if got == 0 {
		res["histogram-latency"], res["histogram-ttl"] = map[string]int{}, map[string]int{}
	}
	return res
}

// traceResult is traceroute's one path: every hop answering, or, to an unreachable host, the
// hops up to its site's border and then none.
func traceResult(p Path) map[string]any {
	var path []map[string]any
	for i, ip := range p.Hops {
		last := i == len(p.Hops)-1
		if !p.Reachable && i >= len(p.Hops)-2 {
			path = append(path, map[string]any{})
			continue
		}
		rtt := p.RTTms * float64(i+1) / float64(len(p.Hops))
		if last {
			rtt = p.RTTms
		}
		path = append(path, map[string]any{"ip": ip, "rtt": isoSeconds(rtt / 1000)})
	}
	return map[string]any{"schema": 1, "succeeded": true, "paths": []any{path}}
}

// rttResult is ping's merged form: count round trips, lost ones without an rtt.
func rttResult(s Stream, p Path, seq uint64) map[string]any {
	count := 5
	var rounds []map[string]any
	got := 0
	for i := range count {
		if !p.Reachable || unit("lost", s.Src, s.Dst, strconv.FormatUint(seq, 10), strconv.Itoa(i)) < p.LossFrac {
			rounds = append(rounds, map[string]any{"seq": i + 1, "error": "no reply"})
			continue
		}
		got++
		rounds = append(rounds, map[string]any{"seq": i + 1, "ip": s.Dst, "rtt": isoSeconds((p.RTTms + 0.3*jitter(s, seq, strconv.Itoa(i))) / 1000)})
	}
	res := map[string]any{"schema": 1, "succeeded": true, "sent": count, "received": got,
		"loss": float64(count-got) / float64(count), "roundtrips": rounds}
	if got > 0 {
		res["min"] = isoSeconds(p.RTTms / 1000)
	}
	return res
}

// throughputResult is iperf3's: one stream, a second per interval, its summary; a refused
// connection to an unreachable host.
func throughputResult(s Stream, p Path, seq uint64) map[string]any {
	if !p.Reachable {
		return map[string]any{"succeeded": false, "error": "unable to connect to server: Connection timed out", "diags": ""}
	}
	secs := max(int(s.Duration.Seconds()), 1)
	var intervals []map[string]any
	total := 0.0
	for i := range secs {
		bps := p.RateBps * (1 + 0.05*jitter(s, seq, "tput"+strconv.Itoa(i)))
		total += bps / 8
		row := map[string]any{"stream-id": 5, "start": float64(i), "end": float64(i + 1),
			"throughput-bytes": bps / 8, "throughput-bits": bps, "retransmits": int(p.LossFrac * 1000),
			"rtt": int(p.RTTms * 1000), "omitted": false}
		intervals = append(intervals, map[string]any{"streams": []any{row}, "summary": without(row, "stream-id", "rtt")})
	}
	sum := map[string]any{"start": 0, "end": float64(secs), "throughput-bytes": total,
		"throughput-bits": total * 8 / float64(secs), "retransmits": int(p.LossFrac * 1000 * float64(secs))}
	stream := map[string]any{"stream-id": 5, "rtt": int(p.RTTms * 1000)}
	for k, v := range sum {
		stream[k] = v
	}
	return map[string]any{"succeeded": true, "diags": "", "intervals": intervals,
		"summary": map[string]any{"streams": []any{stream}, "summary": sum}}
}

func without(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for _, k := range keys {
		delete(out, k)
	}
	return out
}
