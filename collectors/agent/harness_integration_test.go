//go:build integration

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"longhaul/collectors/config"
	"longhaul/collectors/internal/kafkatest"
	"longhaul/collectors/publish"
	"longhaul/collectors/schedule"
	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
	"longhaul/ingest/schema"

	_ "longhaul/probes/host" // a real probe kind next to the synthetic one
)

// This package's brokers, one per test (they run in parallel, each waiting on its broker and agent
// most of the time): stack folders under itStackDir, ports from itPort and itCtrlPort by
// kafkatest.PortStep, so stopping one disturbs no one.
const (
	itStackDir = "/tmp/lh-it-kafka-agent"
	itPort     = 19092
	itCtrlPort = 19093
)

// itUser is the agent's Kafka user (kafkatest AddAgent of it-sender, the config's src): it writes
// its own raw topics.
const itUser = config.AgentUserPrefix + "it-sender"

// own is the topic the agent sends a record of topic to.
func own(topic string) string { return contract.OwnTopic(topic, itUser) }

var rawTopics = []string{own(sample.TopicThroughput), own(sample.TopicPath), own(sample.TopicRTT), own(sample.TopicHost), own(sample.TopicDeadLetter)}

// observed is every sample the agent put in its spool, as the JSON it was published as, in
// spool order per topic and key.
type observed struct {
	mu     sync.Mutex
	count  map[string]int
	order  map[string][]string // "topic key" → values in spool order
	total  int
	notRun int // not_started results
}

func newObserved() *observed {
	return &observed{count: map[string]int{}, order: map[string][]string{}}
}

func (o *observed) add(r schedule.Result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if r.NotStarted {
		o.notRun++
	}
	for _, s := range r.Samples {
		raw, err := json.Marshal(s)
		if err != nil {
			panic(err)
		}
		k := own(sample.TopicOf(s)) + " " + s.Head().Key()
		o.count[string(raw)]++
		o.order[k] = append(o.order[k], string(raw))
		o.total++
	}
}

// outcome is what reached Kafka compared with what was spooled.
type outcome struct {
	produced, consumed, unique, duplicates, lost int
	missing                                      []string
	byTopic                                      map[string]int
	lostByKind                                   map[string]int // "schema/record" of lost samples
}

func (o outcome) String() string {
	return fmt.Sprintf("produced %d, consumed %d (%d unique, %d duplicates), lost %d; by topic %v",
		o.produced, o.consumed, o.unique, o.duplicates, o.lost, o.byTopic)
}

// verify consumes the raw topics until every spooled sample but allowMissing is there (or
// timeout), checks each record against its schema and its key, and each link's order per topic.
func verify(t *testing.T, b *itBroker, obs *observed, timeout time.Duration, allowMissing int) outcome {
	t.Helper()
	reg, err := schema.Load(filepath.Join(kafkatest.Root(), "ingest", "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	want := len(obs.count) - allowMissing
	seen := map[string]int{}
	got, next := 0, 0
	recs := b.Consume(rawTopics, timeout, func(rs []kafkatest.Record) bool {
		for ; next < len(rs); next++ {
			v := string(rs[next].Value)
			if seen[v]++; seen[v] == 1 && obs.count[v] > 0 {
				got++
			}
		}
		return got >= want
	})
	out := outcome{produced: obs.total, consumed: len(recs), byTopic: map[string]int{}, lostByKind: map[string]int{}}
	clear(seen)
	perLink := map[string][]kafkatest.Record{}
	for _, r := range recs {
		if err := reg.Validate(r.Value); err != nil {
			t.Errorf("record %s/%d@%d does not validate: %v\n%s", r.Topic, r.Partition, r.Offset, err, r.Value)
		}
		var head sample.Envelope
		json.Unmarshal(r.Value, &head)
		if r.Key != head.Key() {
			t.Errorf("record keyed %q for link %q", r.Key, head.Key())
		}
		if seen[string(r.Value)]++; seen[string(r.Value)] > 1 {
			out.duplicates++
		} else {
			out.byTopic[r.Topic]++
		}
		perLink[r.Topic+" "+r.Key] = append(perLink[r.Topic+" "+r.Key], r)
	}
	out.unique = len(seen)
	for v, n := range obs.count {
		if seen[v] == 0 {
			out.lost += n
			var kind struct{ Schema, Record string }
			json.Unmarshal([]byte(v), &kind)
			out.lostByKind[kind.Schema+"/"+kind.Record] += n
			if len(out.missing) < 5 {
				out.missing = append(out.missing, v)
			}
		}
	}
	checkLinkOrder(t, obs, perLink)
	checkSentStamps(t, recs)
	return out
}

// checkSentStamps: every record of a raw topic carries the agent's clock at the attempt that
// delivered it (header sent_ms) within the clock-skew tolerance of the broker's append time, so
// the Flink job judges this agent's correct clock correct, outages, resends and spool backlogs
// included.
func checkSentStamps(t *testing.T, recs []kafkatest.Record) {
	t.Helper()
	tol := time.Duration(contract.ClockSkewToleranceS * float64(time.Second))
	var worst time.Duration
	n := 0
	for _, r := range recs {
		if _, raw := contract.WriterOf(r.Topic); raw == "" {
			continue
		}
		n++
		ms, err := strconv.ParseInt(r.Headers[contract.HeaderSentMs], 10, 64)
		if err != nil {
			t.Errorf("record %s/%d@%d: header %s %q: %v", r.Topic, r.Partition, r.Offset, contract.HeaderSentMs, r.Headers[contract.HeaderSentMs], err)
			continue
		}
		d := r.Timestamp.Sub(time.UnixMilli(ms)).Abs()
		worst = max(worst, d)
		if d > tol {
			t.Errorf("record %s/%d@%d reached the broker %v from its sent_ms: judged a skewed clock", r.Topic, r.Partition, r.Offset, d)
		}
	}
	t.Logf("sent_ms of %d raw records within %v of the broker's append time", n, worst)
}

// checkLinkOrder: within each (topic, link), the first delivery of each sample follows spool
// order (a partition keeps one link's order; resends may repeat a sample later).
func checkLinkOrder(t *testing.T, obs *observed, perLink map[string][]kafkatest.Record) {
	t.Helper()
	for k, rs := range perLink {
		sort.Slice(rs, func(i, j int) bool { return rs[i].Offset < rs[j].Offset })
		if rs[0].Partition != rs[len(rs)-1].Partition {
			t.Errorf("link %s spread over partitions %d and %d", k, rs[0].Partition, rs[len(rs)-1].Partition)
		}
		pos := map[string]int{}
		for i, v := range obs.order[k] {
			if _, dup := pos[v]; !dup {
				pos[v] = i
			}
		}
		last, first := -1, map[string]bool{}
		for _, r := range rs {
			v := string(r.Value)
			if first[v] {
				continue
			}
			first[v] = true
			if p := pos[v]; p < last {
				t.Errorf("link %s: offset %d holds spool position %d after %d: order lost", k, r.Offset, p, last)
				return
			} else {
				last = p
			}
		}
	}
}

// itConfig writes a config for the integration broker, reached at brokers with the agent's
// credential on b: synthetic throughput runs (exclusive, intervals rows + summary) and the
// real host kind against three local targets.
func itConfig(t *testing.T, dir string, b *itBroker, brokers, spool string, probes string) *config.Config {
	t.Helper()
	body := fmt.Sprintf(`src: it-sender
kafka:
  bootstrap: [%s]
  max_in_flight: 200
  tls: {ca_file: %s}
  sasl: {user: %s, password_file: %s}
spool:
%s
health:
  listen: "127.0.0.1:0"
  log_every: 5s
schemas_dir: %s
targets:
  - {name: lo-a, address: 127.0.0.1, shared: true}
  - {name: lo-b, address: 127.0.0.2}
  - {name: lo-c, address: 127.0.0.3}
probes:
%s`, brokers, b.CA(), b.user, b.passwordFile, spool, filepath.Join(kafkatest.Root(), "ingest", "schemas"), probes)
	return loadConfig(t, filepath.Join(dir, "longhaul-probe.yaml"), body)
}

// runningAgent is an agent started in the background.
type runningAgent struct {
	*Agent
	cancel context.CancelFunc
	done   chan error
}

func startAgent(t *testing.T, cfg *config.Config, obs *observed) *runningAgent {
	t.Helper()
	return startAgentWith(t, cfg, Options{Version: "it", Logger: testLogger(t), Observe: obs.add, Publisher: publishOptions()})
}

func startAgentWith(t *testing.T, cfg *config.Config, opt Options) *runningAgent {
	t.Helper()
	a, err := New(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ra := &runningAgent{Agent: a, cancel: cancel, done: make(chan error, 1)}
	go func() { ra.done <- a.Run(ctx) }()
	t.Cleanup(func() { ra.stop(t) })
	return ra
}

func (ra *runningAgent) stop(t *testing.T) {
	if ra.cancel == nil {
		return
	}
	ra.cancel()
	ra.cancel = nil
	select {
	case err := <-ra.done:
		if err != nil {
			t.Errorf("agent: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Error("agent did not stop within 60 s")
	}
}

// waitUntil polls cond once a second (bounded), logging the agent's state.
func waitUntil(t *testing.T, what string, timeout time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > timeout {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return time.Since(start)
}

func publishOptions() publish.PublisherOptions {
	return publish.PublisherOptions{PingEvery: time.Second, MinBackoff: 200 * time.Millisecond,
		MaxBackoff: 2 * time.Second, FlushTimeout: 3 * time.Second}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
