package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/collectors/publish"
	"longhaul/perfsonar/psbridge"
)

// taken is a result written to the spool (take) and not yet known durable (settle). Results
// taken one after another, by concurrent posts or from one fetch of the Kafka archiver's topic,
// share the fsync of the first of them settled (publish.Spool.Durable). It holds neither the
// result nor its samples: a post settles outside its conversion slot (psbridge.Settle).
type taken struct {
	input   string
	out     psbridge.Outcome
	seenKey string // an accepted result's: remembered once durable
	share   shareMsg
	written publish.Written
}

// errSettling says the same result (its seen key) is taken and not yet settled: wait until the
// channel closes, then take it again (a duplicate, once the first is durable).
type errSettling chan struct{}

func (errSettling) Error() string { return "the same result is being stored" }

// takeFrom converts one result identity delivered through input and writes its samples to the
// spool, or writes it whole as a dead letter with the reason: it cannot be converted, it makes
// too many samples, or identity may not report for its hosts (pscheduler_bridge.hosts). A result
// already converted, the same run saying the same (psbridge.Converted.SeenKey), is a duplicate.
// The settle it returns waits until the result is durable; an error from either means the result
// is not known to be kept: the caller delivers it again (the HTTP archiver retries on 503; the
// Kafka input does not commit past it). It is the HTTP endpoint's psbridge.Acceptor.
func (a *Agent) takeFrom(body []byte, input, identity string) (psbridge.Settle, error) {
	for {
		t, err := a.take(body, input, identity)
		var wait errSettling
		if errors.As(err, &wait) {
			<-wait
			continue
		}
		if err != nil {
			return nil, err
		}
		return func() (psbridge.Outcome, error) { return a.settle(t) }, nil
	}
}

// acceptAll accepts the results of one fetch of the Kafka archiver's topic with one fsync for
// all of them (one each held the path at 1,141 results/s, against 1,889 without fsync:
// docs/benchmarks.md, pScheduler bridge) and says how many of rs, from the first, are kept: the
// offsets that may be committed. A result the spool could not take is tried again a second
// later, until ctx ends.
func (a *Agent) acceptAll(ctx context.Context, rs []*kgo.Record, identity func(*kgo.Record) string) int {
	kept := 0      // rs[:kept] are kept
	var ts []taken // rs[kept:kept+len(ts)] are taken, not settled
	settleTaken := func() {
		ok := true
		for _, t := range ts {
			_, err := a.settle(t) // each one, also after a failure: it ends their settling
			if ok = ok && err == nil; ok {
				kept++
			}
		}
		ts = ts[:0] // from the first not kept, taken again (those after it: duplicates)
	}
	for kept+len(ts) < len(rs) && ctx.Err() == nil {
		r := rs[kept+len(ts)]
		t, err := a.take(r.Value, InputKafka, identity(r))
		var wait errSettling
		switch {
		case errors.As(err, &wait):
			settleTaken() // the same result twice in one fetch, or posted meanwhile
			select {
			case <-wait:
			case <-ctx.Done():
			}
		case err != nil:
			settleTaken()
			sleepCtx(ctx, time.Second)
		default:
			ts = append(ts, t)
		}
	}
	settleTaken()
	return kept
}

// take converts body and writes its records to the spool, not waiting for them to be durable,
// or finds it a duplicate.
func (a *Agent) take(body []byte, input, identity string) (taken, error) {
	b := a.psb
	t := taken{input: input}
	conv, seenKey, cerr := b.convert(body, identity)
	if cerr == nil && b.seen.Has(seenKey) {
		t.out = psbridge.Outcome{Status: psbridge.Duplicate, Key: conv.Key}
		return t, nil
	}
	var recs []publish.Record
	if cerr != nil {
		rec, err := a.deadResult(body, input, cerr)
		if err != nil {
			return t, err
		}
		recs, t.out = []publish.Record{rec}, psbridge.Outcome{Status: psbridge.DeadLettered, Reason: cerr.Error()}
	} else {
		for _, s := range conv.Samples {
			rec, dl, err := a.enc.encode(s)
			if err != nil {
				return t, err
			}
			if dl {
				a.log.Warn("a pScheduler result's sample failed validation; spooled as a dead letter",
					"key", conv.Key, "schema", s.Head().Schema)
			}
			recs = append(recs, rec)
		}
		t.out = psbridge.Outcome{Status: psbridge.Accepted, Key: conv.Key, Samples: len(recs)}
		t.seenKey, t.share = seenKey, shareOf(conv, seenKey, a.cfg.Src)
	}
	a.sinkMu.Lock()
	defer a.sinkMu.Unlock()
	if t.seenKey != "" {
		if b.seen.Has(t.seenKey) {
			t.out, t.seenKey = psbridge.Outcome{Status: psbridge.Duplicate, Key: conv.Key}, ""
			return t, nil
		}
		if ch, ok := b.settling[t.seenKey]; ok {
			return taken{}, errSettling(ch)
		}
	}
	// all of the result or none: an archiver told "accepted" forgets the result
	err := a.retry(func(rs []publish.Record) (err error) {
		t.written, err = a.spool.WriteAll(rs)
		return err
	}, recs)
	if err != nil {
		b.fail(err, a.opt.Clock.Now())
		return taken{}, fmt.Errorf("the spool cannot store it: %w", err)
	}
	if t.seenKey != "" {
		b.settling[t.seenKey] = make(chan struct{})
	}
	return t, nil
}

// settle waits until what take wrote is durable (an fsync that may be another's), then
// remembers an accepted result's key, shares it with the fleet's bridges and counts.
func (a *Agent) settle(t taken) (psbridge.Outcome, error) {
	b := a.psb
	now := a.opt.Clock.Now()
	if t.out.Status == psbridge.Duplicate {
		b.count(t.input, t.out, now)
		return t.out, nil
	}
	err := a.spool.Durable(t.written)
	if t.seenKey != "" {
		if err == nil {
			if aerr := b.seen.Add(t.seenKey); aerr != nil {
				a.log.Error("pscheduler bridge: cannot remember a result; a retry of it would be converted again", "err", aerr)
			}
			b.share(t.share, now)
		}
		a.sinkMu.Lock()
		close(b.settling[t.seenKey])
		delete(b.settling, t.seenKey)
		a.sinkMu.Unlock()
	}
	if err != nil {
		b.fail(err, now)
		return psbridge.Outcome{}, fmt.Errorf("the spool cannot store it: %w", err)
	}
	if t.out.Status == psbridge.Accepted {
		a.stats.add(t.out.Samples, 0, 0)
	} else {
		a.stats.add(0, 1, 0)
		a.log.Warn("pScheduler result cannot be converted; spooled as a dead letter", "input", t.input, "reason", t.out.Reason)
	}
	b.count(t.input, t.out, now)
	return t.out, nil
}

// convert is body's samples and seen key, or why they are not taken: the result cannot be
// converted, makes more than max_samples (a retry would be no smaller), or identity may not
// report for its hosts.
func (b *psBridge) convert(body []byte, identity string) (psbridge.Converted, string, error) {
	conv, err := psbridge.Convert(body)
	if err == nil && len(conv.Samples) > b.cfg.MaxSamples {
		err = fmt.Errorf("the result makes %d samples, more than pscheduler_bridge.max_samples (%d)", len(conv.Samples), b.cfg.MaxSamples)
	}
	if err == nil {
		if why := psbridge.Hosts(b.cfg.Hosts).Refusal(identity, conv); why != "" {
			err = errors.New(why)
		}
	}
	var key string
	if err == nil {
		key, err = conv.SeenKey()
	}
	if err != nil {
		conv.Samples = nil
	}
	return conv, key, err
}
