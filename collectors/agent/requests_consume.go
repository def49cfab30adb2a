package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
)

// consumeProbeRequests reads the job's probe requests (every agent reads the one topic, in a group
// of its own, and acts on its own src only) and queues the runs. A new group starts at the end of
// the topic: older requests have expired. Offsets are committed once a batch is decided, so a
// restart does not take a request twice; one read but not yet run when the agent stops is lost,
// and the job reports it unanswered when it expires.
func (a *Agent) consumeProbeRequests(ctx context.Context) {
	conn, err := a.cfg.KafkaConn()
	var cl *kgo.Client
	if err == nil {
		cl, err = conn.NewClient(kgo.ConsumerGroup(a.req.group), kgo.ConsumeTopics(contract.TopicProbeRequests),
			kgo.DisableAutoCommit(), kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()),
			kgo.ClientID(a.cfg.Kafka.ClientID+"-requests"),
			kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) { a.req.setAssigned(true) }),
			kgo.OnPartitionsRevoked(func(context.Context, *kgo.Client, map[string][]int32) { a.req.setAssigned(false) }),
			kgo.OnPartitionsLost(func(context.Context, *kgo.Client, map[string][]int32) { a.req.setAssigned(false) }))
	}
	if err != nil {
		a.req.fail(fmt.Errorf("kafka input: %w", err))
		a.log.Error("probe requests: no Kafka input", "topic", contract.TopicProbeRequests, "err", err)
		return
	}
	defer cl.Close()
	a.log.Info("probe requests: consuming", "topic", contract.TopicProbeRequests, "group", a.req.group)
	last := ""
	for ctx.Err() == nil {
		fs := cl.PollRecords(ctx, 100)
		if ctx.Err() != nil {
			return
		}
		fs.EachError(func(topic string, p int32, err error) {
			if errors.Is(err, context.Canceled) {
				return
			}
			if msg := err.Error(); msg != last {
				last = msg
				a.log.Error("probe requests: Kafka input", "topic", topic, "partition", p, "err", err)
			}
			a.req.fail(fmt.Errorf("kafka input: %w", err))
		})
		if len(fs.Errors()) > 0 && fs.NumRecords() == 0 {
			sleepCtx(ctx, time.Second)
			continue
		}
		var done []*kgo.Record
		fs.EachRecord(func(r *kgo.Record) {
			outcome, why := a.req.take(r.Value, a.cfg.Src, a.opt.Clock.Now(), a.sched)
			switch outcome {
			case RequestOtherHost:
			case RequestQueued:
				a.log.Info("probe request: extra run queued", "key", string(r.Key), "reason", why)
			default:
				a.log.Warn("probe request not run", "key", string(r.Key), "outcome", outcome, "why", why)
			}
			done = append(done, r)
		})
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if err := cl.CommitRecords(cctx, done...); err != nil {
			a.log.Warn("probe requests: commit failed; they will be read again", "err", err)
		}
		cancel()
	}
}
