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

// head writes what every sample starts with, up to its run_id: the run id's prefix and number.
func head(b []byte, schema, src string, link int, probeID string, ts int64, runPrefix string, runNumber int64) []byte {
	b = append(b, `{"schema":"`...)
	b = append(b, schema...)
	b = append(b, `","version":1,"src":"`...)
	b = append(b, src...)
	b = append(b, `","dst":"`...)
	b = append(b, linkDst(link)...)
	b = append(b, `","probe_id":"`...)
	b = append(b, probeID...)
	b = append(b, `","ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"run_id":"`...)
	b = append(b, runPrefix...)
	return strconv.AppendInt(b, runNumber, 10)
}

// linkAddr writes the link's destination address, 10.<link/250>.<link%250>.1.
func linkAddr(b []byte, link int) []byte {
	b = append(b, `10.`...)
	b = strconv.AppendInt(b, int64(link/250), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(link%250), 10)
	return append(b, `.1`...)
}

func interval(b []byte, src string, link int, ts int64, sec int, bps float64, r *rand.Rand) []byte {
	bps *= 0.7 + 0.6*r.Float64()
	b = head(b, "throughput_sample", src, link, "tcp-default", ts, "r-", ts/60000)
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
	b = head(b, "throughput_sample", src, link, "tcp-summary", ts, "s-", ts)
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
	b = head(b, "path_sample", src, link, "path", ts, "p-", ts)
	b = append(b, `","tool":"traceroute","dst_addr":"`...)
	b = linkAddr(b, link)
	b = append(b, `","max_ttl":30,"queries":3,"reached":true,"hops":[`...)
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
			b = append(b, `{"addr":"`...)
			if h == hops {
				b = linkAddr(b, link)
			} else {
				b = append(b, `10.255.`...)
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
