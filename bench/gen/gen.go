package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/sample"
)

// gen turns steps of many links into samples and sends them to Kafka, or writes them as JSON
// Lines to out (-print).
type gen struct {
	src, topicTP, topicPath          string
	links, hops, pathEvery, sumEvery int
	collapseLinks                    int
	collapseAt                       int64
	collapseDrop                     float64
	cl                               *kgo.Client
	out                              io.Writer // -print: samples as JSON Lines; nil: Kafka
	onsets                           io.Writer // each collapsed link's first collapsed summary
	r                                *rand.Rand
	sent, failed                     atomic.Int64
	onsetSeen                        map[int]bool
}

func newGen() *gen {
	return &gen{r: rand.New(rand.NewPCG(1, 2)), onsetSeen: map[int]bool{}}
}

// emit writes step's samples of link: an interval record always, a summary every sumEvery steps,
// a path every pathEvery steps (staggered by link so the links do not all send at once).
func (g *gen) emit(step, link int, ts int64) {
	bps := baseBps(link)
	g.send(g.topicTP, interval(g.src, link, ts, step%10, bps, g.r))
	if g.sumEvery > 0 && (step+link)%g.sumEvery == 0 {
		if link < g.collapseLinks && ts >= g.collapseAt {
			bps *= 1 - g.collapseDrop
			if !g.onsetSeen[link] {
				g.onsetSeen[link] = true
				json.NewEncoder(g.onsets).Encode(struct {
					Dst     string `json:"dst"`
					OnsetTS int64  `json:"onset_ts"`
				}{linkDst(link), ts})
			}
		}
		g.send(g.topicTP, summary(g.src, link, ts, bps, g.r))
	}
	if g.pathEvery > 0 && (step+link)%g.pathEvery == 0 {
		g.send(g.topicPath, path(g.src, link, g.hops, ts, g.r))
	}
}

func (g *gen) send(topic string, s sample.Sample) {
	v, err := json.Marshal(s)
	if err != nil {
		g.failed.Add(1)
		return
	}
	if g.out != nil {
		fmt.Fprintf(g.out, "%s\n", v)
		g.sent.Add(1)
		return
	}
	rec := &kgo.Record{Topic: topic, Key: []byte(s.Head().Key()), Value: v}
	g.cl.Produce(context.Background(), rec, func(_ *kgo.Record, err error) {
		if err != nil {
			g.failed.Add(1)
			return
		}
		g.sent.Add(1)
	})
}
