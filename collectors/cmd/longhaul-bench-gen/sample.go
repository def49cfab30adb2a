package main

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// Synthetic raw samples shaped like the collectors' output (ingest/schemas): iperf3 TCP interval
// records, run summaries and traceroute paths with a fixed number of hops.

func linkDst(i int) string { return "dst-" + strconv.Itoa(i) }

// baseBps gives every link its own capacity, spread over three decades (10 Mbit/s .. 10 Gbit/s).
func baseBps(link int) float64 { return 1e7 * math.Pow(1000, float64(link%997)/997) }

func interval(b []byte, src string, link int, ts int64, sec int, bps float64, r *rand.Rand) []byte {
	bps *= 0.7 + 0.6*r.Float64()
	b = append(b, `{"schema":"throughput_sample","version":1,"src":"`...)
	b = append(b, src...)
	b = append(b, `","dst":"`...)
	b = append(b, linkDst(link)...)
	b = append(b, `","probe_id":"tcp-default","ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"run_id":"r-`...)
	b = strconv.AppendInt(b, ts/60000, 10)
	b = append(b, `","record":"interval","tool":"iperf3","tool_version":"3.12","protocol":"tcp","direction":"forward","streams":1,"window_bytes":null,"congestion":"cubic","start_s":`...)
	b = strconv.AppendFloat(b, float64(sec), 'f', 1, 64)
	b = append(b, `,"end_s":`...)
	b = strconv.AppendFloat(b, float64(sec+1), 'f', 1, 64)
	b = append(b, `,"omitted":false,"bytes":`...)
	b = strconv.AppendInt(b, int64(bps/8), 10)
	b = append(b, `,"bits_per_second":`...)
	b = strconv.AppendFloat(b, bps, 'f', 1, 64)
	b = append(b, `,"retransmits":`...)
	b = strconv.AppendInt(b, int64(r.IntN(5)), 10)
	b = append(b, `,"snd_cwnd_bytes":65160,"rtt_ms":`...)
	b = strconv.AppendFloat(b, 150+20*r.Float64(), 'f', 1, 64)
	b = append(b, `,"rttvar_ms":12.1}`...)
	return b
}

func summary(b []byte, src string, link int, ts int64, bps float64, r *rand.Rand) []byte {
	bps *= 0.85 + 0.3*r.Float64()
	b = append(b, `{"schema":"throughput_sample","version":1,"src":"`...)
	b = append(b, src...)
	b = append(b, `","dst":"`...)
	b = append(b, linkDst(link)...)
	b = append(b, `","probe_id":"tcp-summary","ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"run_id":"s-`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `","record":"summary","tool":"iperf3","target":"192.0.2.1","port":5201,"protocol":"tcp","direction":"forward","streams":1,"window_bytes":null,"duration_s":10.0,"start_s":0.0,"end_s":10.0,"bytes":`...)
	b = strconv.AppendInt(b, int64(bps*10/8), 10)
	b = append(b, `,"bits_per_second":`...)
	b = strconv.AppendFloat(b, bps, 'f', 1, 64)
	b = append(b, `,"retransmits":`...)
	b = strconv.AppendInt(b, int64(r.IntN(50)), 10)
	b = append(b, `}`...)
	return b
}

func path(b []byte, src string, link, hops int, ts int64, r *rand.Rand) []byte {
	b = append(b, `{"schema":"path_sample","version":1,"src":"`...)
	b = append(b, src...)
	b = append(b, `","dst":"`...)
	b = append(b, linkDst(link)...)
	b = append(b, `","probe_id":"path","ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"run_id":"p-`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `","tool":"traceroute","dst_addr":"10.`...)
	b = strconv.AppendInt(b, int64(link/250), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(link%250), 10)
	b = append(b, `.1","max_ttl":30,"queries":3,"reached":true,"hops":[`...)
	for h := 1; h <= hops; h++ {
		if h > 1 {
			b = append(b, ',')
		}
		b = append(b, `{"ttl":`...)
		b = strconv.AppendInt(b, int64(h), 10)
		b = append(b, `,"probes":[`...)
		for q := 0; q < 3; q++ {
			if q > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"addr":"10.`...)
			if h == hops {
				b = strconv.AppendInt(b, int64(link/250), 10)
				b = append(b, '.')
				b = strconv.AppendInt(b, int64(link%250), 10)
				b = append(b, `.1`...)
			} else {
				b = append(b, `255.`...)
				b = strconv.AppendInt(b, int64(h), 10)
				b = append(b, `.1`...)
			}
			b = append(b, `","rtt_ms":`...)
			b = strconv.AppendFloat(b, float64(h)*10+r.Float64(), 'f', 2, 64)
			b = append(b, '}')
		}
		b = append(b, `]}`...)
	}
	b = append(b, `]}`...)
	return b
}
