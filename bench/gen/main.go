// Command longhaul-bench-gen produces synthetic raw samples for many links into Kafka for
// scripts/bench.sh: as fast as it can with past timestamps (-mode load, for throughput), or at a
// fixed rate stamped with the wall clock (-mode live, for latency and detection delay). The
// samples are the collectors' own types (ingest/sample) on the contract's topics
// (ingest/contract); gen_test.go validates them against ingest/schemas.
//
// Each step every link gets one TCP interval record; every -path-every steps a traceroute path
// with -hops hops, every -summary-every steps a run summary. In live mode a step lasts
// links/rate seconds. With -collapse-links K, the summaries of links 0..K-1 drop by -collapse-drop
// from -collapse-at onwards; each link's first collapsed summary is printed as a JSON line
// {"dst":…,"onset_ts":…} on stdout.
//
// Build: go build -o bin/longhaul-bench-gen ./bench/gen
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
)

func main() {
	kafka := settings.Kafka.String(flag.CommandLine)
	mode := flag.String("mode", "load", "load (past timestamps, as fast as possible) or live (wall clock, -rate)")
	g := newGen()
	flag.StringVar(&g.src, "src", "bench-src", "src of every sample")
	flag.StringVar(&g.topicTP, "topic-throughput", contract.TopicRawThroughput, "")
	flag.StringVar(&g.topicPath, "topic-path", contract.TopicRawPath, "")
	flag.IntVar(&g.links, "links", 10000, "number of links (dst-0 .. dst-N-1)")
	flag.IntVar(&g.hops, "hops", 15, "hops per path sample")
	flag.IntVar(&g.pathEvery, "path-every", 30, "a path sample per link every N steps (0: none)")
	flag.IntVar(&g.sumEvery, "summary-every", 10, "a run summary per link every N steps (0: none)")
	steps := flag.Int("steps", 60, "load: steps (event-time seconds) to produce")
	start := flag.Int64("start-ms", 0, "load: ts of the first step (default: now - steps s, minute aligned)")
	rate := flag.Float64("rate", 10000, "live: samples per second (interval records)")
	dur := flag.Duration("duration", time.Minute, "live: how long")
	flag.IntVar(&g.collapseLinks, "collapse-links", 0, "live: links whose summaries collapse")
	collapseAfter := flag.Duration("collapse-after", 0, "live: the collapse begins this long after the start")
	flag.Float64Var(&g.collapseDrop, "collapse-drop", 0.7, "fraction of throughput lost in the collapse")
	printOnly := flag.Bool("print", false, "write the samples to stdout as JSON Lines instead of Kafka")
	partitions := flag.Int("create-partitions", 0, "create the two topics with this many partitions first (0: no)")
	flag.IntVar(&g.sites, "sites", 0, "spread the links over this many agents (src <src>-NNN), each writing its own topics of the two (0: the two topics)")
	flag.Parse()

	stdout := bufio.NewWriterSize(os.Stdout, 1<<16)
	g.onsets = stdout
	if *printOnly {
		g.out = stdout
	}
	conn, err := kafkaconn.FromSettings(*kafka)
	if err != nil {
		fail(2, err)
	}
	cl, err := conn.NewClient(kgo.DisableIdempotentWrite(),
		kgo.RequiredAcks(kgo.LeaderAck()), kgo.ProducerLinger(5*time.Millisecond),
		kgo.ProducerBatchMaxBytes(1<<20), kgo.MaxBufferedRecords(200000))
	if err != nil {
		fail(1, err)
	}
	g.cl = cl
	if *partitions > 0 {
		createTopics(cl, int32(*partitions), g.topicTP, g.topicPath)
		if g.sites > 0 {
			// one partition each, as `longhaul admin add-agent` makes an agent's own topics
			createTopics(cl, contract.OwnTopicPartitions, siteTopics(g.src, g.sites, g.topicTP, g.topicPath)...)
		}
	}
	t0 := time.Now()
	switch *mode {
	case "load":
		st := *start
		if st == 0 {
			st = (time.Now().Add(-time.Duration(*steps)*time.Second).UnixMilli()/60000 - 1) * 60000
		}
		for s := 0; s < *steps; s++ {
			for l := 0; l < g.links; l++ {
				g.emit(s, l, st+int64(s)*1000)
			}
		}
	case "live":
		g.collapseAt = t0.Add(*collapseAfter).UnixMilli()
		if g.collapseLinks == 0 {
			g.collapseAt = 1 << 62
		}
		live(g, t0, time.Duration(float64(time.Second) / *rate), t0.Add(*dur), stdout)
	default:
		fail(2, "unknown -mode "+*mode)
	}
	if err := cl.Flush(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	cl.Close()
	stdout.Flush()
	el := time.Since(t0).Seconds()
	fmt.Fprintf(os.Stderr, "bench-gen: %d records (%d failed) in %.1f s = %.0f records/s\n",
		g.sent.Load(), g.failed.Load(), el, float64(g.sent.Load())/el)
	if g.failed.Load() > 0 {
		os.Exit(1)
	}
}

// live paces one interval record every perSample until end; onsets are flushed as they happen,
// since a reader (bench/detection.py) times the detection from them.
func live(g *gen, t0 time.Time, perSample time.Duration, end time.Time, stdout *bufio.Writer) {
	n := 0
	for s := 0; time.Now().Before(end); s++ {
		for l := 0; l < g.links && time.Now().Before(end); l++ {
			if due := t0.Add(time.Duration(n) * perSample); time.Until(due) > 0 {
				time.Sleep(time.Until(due))
			}
			g.emit(s, l, time.Now().UnixMilli())
			n++
			if g.out == nil && stdout.Buffered() > 0 {
				stdout.Flush()
			}
		}
	}
}

func createTopics(cl *kgo.Client, partitions int32, topics ...string) {
	resp, err := kadm.NewClient(cl).CreateTopics(context.Background(), partitions, 1, nil, topics...)
	if err == nil {
		err = resp.Error()
	}
	if err != nil && !strings.Contains(err.Error(), "TOPIC_ALREADY_EXISTS") {
		fail(1, "create topics: "+err.Error())
	}
}

func fail(code int, msg any) {
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(code)
}
