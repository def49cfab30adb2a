package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/perfsonar/psbridge"
)

// shareDelay is how long a shared key may wait to be written, and a fetch of the fleet's keys to
// fill: a few Kafka requests a second instead of one produce and one fetch for each result (at
// WLCG's 130 results/s, every one of them a request the broker answered). A retry reaches another
// bridge a minute or more later (pScheduler's retry policy); two ends posting one throughput
// result to two bridges within about a second are converted twice, as the Flink job expects.
const shareDelay = 500 * time.Millisecond

// maxUnshared bounds the keys waiting to be written to the shared topic while Kafka is away
// (a few dozen bytes each); beyond it a key is not shared (health: unshared).
const maxUnshared = 100_000

// shareSeen lets the bridges of one fleet, behind one name, convert each result once: every
// bridge writes the key of each result it converts to contract.TopicPsbridgeSeen (share) and
// follows every bridge's from psbridge.SeenHorizon ago into its own seen keys (learn). A result
// that then reaches another bridge (the HTTP archiver's retry a minute or more later, the other
// end of a throughput test, the Kafka archiver's topic after a rebalance) is a duplicate there.
//
// Best effort, beside the spool: a key not shared (Kafka away for long, the topic or its grant
// missing: health's unshared and last_error) leaves a retry elsewhere to be converted again. Its
// samples are then byte for byte the first's, on the same topic and partition, which the Flink job
// drops as a replay while it remembers them (DropReplayed). Two ends posting the same result
// to two bridges within the follow's delay (shareDelay twice at most) are converted twice, the same way.
func (a *Agent) shareSeen(ctx context.Context) {
	from := a.opt.Clock.Now().Add(-psbridge.SeenHorizon).UnixMilli()
	conn, err := a.cfg.KafkaConn()
	var cl *kgo.Client
	if err == nil {
		cl, err = conn.NewClient(kgo.ConsumeTopics(contract.TopicPsbridgeSeen),
			kgo.ConsumeResetOffset(kgo.NewOffset().AfterMilli(from)),
			kgo.MaxBufferedRecords(maxUnshared), kgo.ClientID(a.cfg.Kafka.ClientID+"-psbridge-seen"),
			kgo.ProducerLinger(shareDelay), kgo.FetchMinBytes(1<<20), kgo.FetchMaxWait(shareDelay))
	}
	if err != nil {
		a.psb.fail(fmt.Errorf("shared keys: %w", err), a.opt.Clock.Now())
		a.log.Error("pscheduler bridge: the fleet's shared keys are not followed", "topic", contract.TopicPsbridgeSeen, "err", err)
		return
	}
	a.psb.mu.Lock()
	a.psb.sharer = cl
	a.psb.mu.Unlock()
	defer func() {
		a.psb.mu.Lock()
		a.psb.sharer = nil
		a.psb.mu.Unlock()
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = cl.Flush(fctx) // the last keys converted, if Kafka takes them now
		cancel()
		cl.Close()
	}()
	a.followInput(ctx, cl, "pscheduler bridge shared keys", 1000, func(err error) { a.psb.fail(err, a.opt.Clock.Now()) },
		func(rs []*kgo.Record) {
			for _, r := range rs {
				a.psb.learn(r.Value, a.log.Warn)
			}
			a.psb.mu.Lock()
			a.psb.st.SharesUntil = max(a.psb.st.SharesUntil, rs[len(rs)-1].Timestamp.UnixMilli())
			a.psb.mu.Unlock()
		})
}

// shareMsg is a result's key as the fleet's other bridges read it (psbridge.EncodeShare): made
// when the result is taken, written once it is durable. Empty for a result without samples.
type shareMsg struct{ key, value []byte }

// shareOf is the message that shares conv's key (seenKey), converted by this bridge (src).
func shareOf(conv psbridge.Converted, seenKey, src string) shareMsg {
	key, value, ok := psbridge.EncodeShare(conv, seenKey, src)
	if !ok {
		return shareMsg{}
	}
	return shareMsg{key, value}
}

// share writes a result's key (shareOf) for the fleet's other bridges.
func (b *psBridge) share(m shareMsg, now time.Time) {
	if m.value == nil {
		return
	}
	b.mu.Lock()
	cl := b.sharer
	if cl == nil {
		b.st.Unshared++ // not yet following the topic, or stopping
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	r := &kgo.Record{Topic: contract.TopicPsbridgeSeen, Key: m.key, Value: m.value}
	cl.TryProduce(context.Background(), r, func(_ *kgo.Record, err error) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if err != nil {
			b.st.Unshared++
			b.st.LastError, b.st.LastErrorAt = "shared keys: "+err.Error(), &now
			return
		}
		b.st.Shared++
	})
}

// learn remembers a key a bridge shared (this one's own it has already: not fresh). A message
// that cannot be read is counted and logged (say), and skipped: it costs at most a result
// converted twice.
func (b *psBridge) learn(v []byte, say func(string, ...any)) {
	s, err := psbridge.DecodeShare(v)
	var fresh bool
	if err == nil {
		fresh, err = b.seen.AddDigest(s.Digest)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case err != nil:
		b.st.BadShares++
		say("pscheduler bridge: a shared key skipped", "topic", contract.TopicPsbridgeSeen, "err", err)
	case fresh:
		b.st.Learnt++
	}
}
