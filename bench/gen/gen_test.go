package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
)

// What the generator writes with -print: every line validates against ingest/schemas with the
// registry the agent uses, and each kind of record is there.
func TestEveryGeneratedSampleValidatesAgainstTheContract(t *testing.T) {
	reg, err := schema.Load("../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	var out, onsets bytes.Buffer
	g := newGen()
	g.src, g.links, g.hops, g.pathEvery, g.sumEvery = "bench-src", 7, 15, 30, 10
	g.out, g.onsets = &out, &onsets
	g.collapseLinks, g.collapseDrop = 2, 0.7 // collapseAt 0: from the first summary
	const start = 1764000000000
	for s := 0; s < 31; s++ {
		for l := 0; l < g.links; l++ {
			g.emit(s, l, start+int64(s)*1000)
		}
	}
	kinds := map[string]int{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if err := reg.Validate(sc.Bytes()); err != nil {
			t.Fatalf("%v\n%s", err, sc.Bytes())
		}
		var head struct{ Schema, Record string }
		json.Unmarshal(sc.Bytes(), &head)
		kinds[head.Schema+" "+head.Record]++
	}
	want := map[string]int{"throughput_sample interval": 7 * 31, "throughput_sample summary": 7 * 31 / 10, "path_sample ": 7}
	for k, n := range want {
		if kinds[k] < n {
			t.Errorf("%d %q records, want at least %d (all: %v)", kinds[k], k, n, kinds)
		}
	}
	if got := int(g.sent.Load()); got != sum(kinds) || g.failed.Load() != 0 {
		t.Errorf("counted %d sent, %d failed; wrote %d", got, g.failed.Load(), sum(kinds))
	}
	if lines := strings.Count(onsets.String(), "\n"); lines != 2 || !strings.Contains(onsets.String(), `{"dst":"dst-0","onset_ts":`) {
		t.Errorf("onsets of the two collapsed links:\n%s", onsets.String())
	}
}

// A path has the requested hops, the last one the link's own address, and its run id and key
// follow the link.
func TestPathEndsAtTheLinksAddress(t *testing.T) {
	p := path("bench-src", 260, 4, 1764000000000, newGen().r)
	last := p.Hops[len(p.Hops)-1]
	if len(p.Hops) != 4 || *last.Probes[2].Addr != "10.1.10.1" || *p.DstAddr != "10.1.10.1" {
		t.Errorf("%+v", p)
	}
	if p.Head().Key() != "bench-src|dst-260" || p.RunID != "p-1764000000000" || sample.TopicOf(p) != sample.TopicPath {
		t.Errorf("key %s run %s", p.Head().Key(), p.RunID)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// With -sites, link l is site l%sites's: its samples carry that agent's src, and the topics they go
// to are that agent's own, where the job takes that src only.
func TestSitesSpreadTheLinksOverAgentsEachOnItsOwnTopics(t *testing.T) {
	var out, onsets bytes.Buffer
	g := newGen()
	g.src, g.links, g.hops, g.pathEvery, g.sumEvery, g.sites = "bench-src", 6, 3, 1, 1, 3
	g.out, g.onsets = &out, &onsets
	for l := 0; l < g.links; l++ {
		g.emit(0, l, 1764000000000)
	}
	srcOf := map[string]string{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var s struct{ Src, Dst string }
		json.Unmarshal(sc.Bytes(), &s)
		srcOf[s.Dst] = s.Src
	}
	for l := 0; l < g.links; l++ {
		if want := fmt.Sprintf("bench-src-%03d", l%3); srcOf[linkDst(l)] != want {
			t.Errorf("link %d: src %q, want %q", l, srcOf[linkDst(l)], want)
		}
	}
	topics := siteTopics("bench-src", 2, "t.throughput", "t.path")
	want := []string{"t.throughput.agent-bench-src-000", "t.path.agent-bench-src-000", "t.throughput.agent-bench-src-001", "t.path.agent-bench-src-001"}
	if strings.Join(topics, " ") != strings.Join(want, " ") {
		t.Fatalf("site topics %v, want %v", topics, want)
	}
	for _, topic := range topics {
		if w, _ := contract.WriterOf(topic); contract.ForeignSrc(topic, contract.OwnSrc(w)) != "" {
			t.Fatalf("%s: its own src refused", topic)
		}
	}
}
