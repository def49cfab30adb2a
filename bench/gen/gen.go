package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
)

// gen turns steps of many links into samples and sends them to Kafka, or writes them as JSON
// Lines to out (-print).
type gen struct {
	src, topicTP, topicPath          string
	links, hops, pathEvery, sumEvery int
	// sites > 0 spreads the links over that many agents, link l to site l % sites: its src is
	// <src>-<site> and its samples go to that agent's own topics (contract.OwnTopicName), as agents
	// with their own Kafka users send them
	sites         int
	collapseLinks int
	collapseAt    int64
	collapseDrop  float64
	cl            *kgo.Client
	out           io.Writer // -print: samples as JSON Lines; nil: Kafka
	onsets        io.Writer // each collapsed link's first collapsed summary
	r             *rand.Rand
	sent, failed  atomic.Int64
	onsetSeen     map[int]bool
}

func newGen() *gen {
	return &gen{r: rand.New(rand.NewPCG(1, 2)), onsetSeen: map[int]bool{}}
}

// emit writes step's samples of link: an interval record always, a summary every sumEvery steps,
// a path every pathEvery steps (staggered by link so the links do not all send at once).
func (g *gen) emit(step, link int, ts int64) {
	bps := baseBps(link)
	src, topicTP, topicPath := g.src, g.topicTP, g.topicPath
	if g.sites > 0 {
		src = siteSrc(g.src, link%g.sites)
		topicTP, topicPath = contract.OwnTopicName(topicTP, agentOf(src)), contract.OwnTopicName(topicPath, agentOf(src))
	}
	g.send(topicTP, interval(src, link, ts, step%10, bps, g.r))
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
		g.send(topicTP, summary(src, link, ts, bps, g.r))
	}
	if g.pathEvery > 0 && (step+link)%g.pathEvery == 0 {
		g.send(topicPath, path(src, link, g.hops, ts, g.r))
	}
}

// siteSrc is the src of site i's agent.
func siteSrc(src string, i int) string { return fmt.Sprintf("%s-%03d", src, i) }

// agentOf is the Kafka user of the agent whose src is src.
func agentOf(src string) string { return contract.OwnTopicPrincipalPrefix + src }

// siteTopics are the own topics of every site's agent, of the given raw topics.
func siteTopics(src string, sites int, topics ...string) []string {
	var out []string
	for i := 0; i < sites; i++ {
		for _, t := range topics {
			out = append(out, contract.OwnTopicName(t, agentOf(siteSrc(src, i))))
		}
	}
	return out
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
