package backfill

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
	"longhaul/perfsonar/psbridge"
)

// Producer is what the import needs of a Kafka client (a *kgo.Client).
type Producer interface {
	Produce(ctx context.Context, r *kgo.Record, promise func(*kgo.Record, error))
	Flush(ctx context.Context) error
}

// Report counts what the import did with each record of its input.
type Report struct {
	Records    int      `json:"records"`    // archive lines and files read
	Accepted   int      `json:"accepted"`   // converted and acknowledged by Kafka
	Samples    int      `json:"samples"`    // their samples
	Duplicates int      `json:"duplicates"` // imported before (seen file) or twice in this input
	Unused     int      `json:"unused"`     // pings, one-way delay, host snapshots: no use for history
	Rejected   int      `json:"rejected"`   // could not be converted, or a sample did not validate
	Failed     int      `json:"failed"`     // converted but not acknowledged by Kafka: import again
	Problems   []string `json:"problems,omitempty"`
}

// maxProblems bounds the problems a report lists; the counts are complete.
const maxProblems = 20

// Importer publishes the samples of each Item, marked as history. A run's throughput samples
// wait until Finish and go newest first (the collapse detector fills a link's history from its
// recent end back); the rest go at once, so memory holds only the throughput runs.
type Importer struct {
	prod  Producer
	reg   *schema.Registry // nil: no validation
	seen  *psbridge.Seen
	now   func() time.Time
	rep   Report
	inRun map[string]bool
	held  []held

	mu     sync.Mutex
	failed map[string]error // key → why Kafka refused one of its records
	sent   map[string]int   // key → samples produced
}

type held struct {
	ts   int64
	key  string
	recs []*kgo.Record
}

// NewImporter publishes with prod, validating against reg, skipping the keys seen remembers.
func NewImporter(prod Producer, reg *schema.Registry, seen *psbridge.Seen, now func() time.Time) *Importer {
	if now == nil {
		now = time.Now
	}
	return &Importer{prod: prod, reg: reg, seen: seen, now: now, inRun: map[string]bool{},
		failed: map[string]error{}, sent: map[string]int{}}
}

// Add takes one item of the input.
func (im *Importer) Add(ctx context.Context, it Item) {
	im.rep.Records++
	if it.Err != nil {
		im.reject(it.Where, it.Err)
		return
	}
	if im.inRun[it.Key] || im.seen.Has(it.Key) {
		im.rep.Duplicates++
		return
	}
	recs, ts, tput, err := im.encode(it.Samples)
	if err != nil {
		im.reject(it.Where, err)
		return
	}
	if len(recs) == 0 {
		im.rep.Unused++
		return
	}
	im.inRun[it.Key] = true
	if tput {
		im.held = append(im.held, held{ts: ts, key: it.Key, recs: recs})
		return
	}
	im.produce(ctx, it.Key, recs)
}

// encode makes the records of one run's samples, validated, each for its history topic (a kind
// without one is left out: sample.HistoryTopicOf); ts is the newest sample's, tput whether the run
// has throughput samples.
func (im *Importer) encode(ss []sample.Sample) (recs []*kgo.Record, ts int64, tput bool, err error) {
	for _, s := range ss {
		raw, err := json.Marshal(s)
		if err != nil {
			return nil, 0, false, err
		}
		if im.reg != nil {
			if err := im.reg.Validate(raw); err != nil {
				return nil, 0, false, fmt.Errorf("a %s sample does not validate: %w", s.Head().Schema, err)
			}
		}
		if sample.TopicOf(s) == sample.TopicDeadLetter {
			return nil, 0, false, fmt.Errorf("no raw topic for schema %q", s.Head().Schema)
		}
		topic := sample.HistoryTopicOf(s)
		if topic == "" {
			continue
		}
		h := s.Head()
		recs = append(recs, &kgo.Record{Topic: topic, Key: []byte(h.Key()), Value: raw})
		ts = max(ts, h.TS)
		tput = tput || topic == contract.TopicHistoryThroughput
	}
	return recs, ts, tput, nil
}

// Report is the counts so far (Finish completes them).
func (im *Importer) Report() Report { return im.rep }

func (im *Importer) reject(where string, err error) {
	im.rep.Rejected++
	if len(im.rep.Problems) < maxProblems {
		im.rep.Problems = append(im.rep.Problems, where+": "+err.Error())
	}
}

// produce sends one run's records with the send time (the contract's sent_ms header). That they
// are history is said by their topic, which only the importer may write.
func (im *Importer) produce(ctx context.Context, key string, recs []*kgo.Record) {
	sent := []byte(strconv.FormatInt(im.now().UnixMilli(), 10))
	for _, r := range recs {
		r.Headers = []kgo.RecordHeader{{Key: contract.HeaderSentMs, Value: sent}}
		im.prod.Produce(ctx, r, func(_ *kgo.Record, err error) {
			im.mu.Lock()
			defer im.mu.Unlock()
			if err != nil {
				if _, ok := im.failed[key]; !ok {
					im.failed[key] = err
				}
				return
			}
			im.sent[key]++
		})
	}
}

// Finish sends the held throughput runs newest first, waits for Kafka, remembers every run it
// acknowledged whole, and reports.
func (im *Importer) Finish(ctx context.Context) (Report, error) {
	sort.SliceStable(im.held, func(i, j int) bool { return im.held[i].ts > im.held[j].ts })
	for _, h := range im.held {
		im.produce(ctx, h.key, h.recs)
	}
	im.held = nil
	ferr := im.prod.Flush(ctx)
	im.mu.Lock()
	defer im.mu.Unlock()
	for key := range im.inRun {
		if err, bad := im.failed[key]; bad {
			im.rep.Failed++
			if len(im.rep.Problems) < maxProblems {
				im.rep.Problems = append(im.rep.Problems, key+": not acknowledged by Kafka: "+err.Error())
			}
			continue
		}
		if ferr != nil {
			im.rep.Failed++
			continue
		}
		im.rep.Accepted++
		im.rep.Samples += im.sent[key]
		if err := im.seen.Add(key); err != nil {
			return im.rep, err
		}
	}
	return im.rep, ferr
}
