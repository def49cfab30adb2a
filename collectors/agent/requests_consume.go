package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
)

// consumeProbeRequests reads the job's probe requests (every agent reads the one topic, in a group
// of its own, and acts on its own src only) and queues the runs. A new group starts at the end of
// the topic: older requests have expired. Offsets are committed once a batch is decided, so a
// restart does not take a request twice; one read but not yet run when the agent stops is lost,
// and the job reports it unanswered when it expires. A refusal of the topic or the group is
// logged and makes /health say so (requests.fail); the agent follows on (followInput).
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
	a.followInput(ctx, cl, "probe requests", 100, a.req.fail, func(rs []*kgo.Record) {
		for _, r := range rs {
			outcome, why := a.req.take(r.Value, a.cfg.Src, a.opt.Clock.Now(), a.sched)
			switch outcome {
			case RequestOtherHost:
			case RequestQueued:
				a.log.Info("probe request: extra run queued", "key", string(r.Key), "reason", why)
			default:
				a.log.Warn("probe request not run", "key", string(r.Key), "outcome", outcome, "why", why)
			}
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if err := cl.CommitRecords(cctx, rs...); err != nil {
			a.log.Warn("probe requests: commit failed; they will be read again", "err", err)
		}
		cancel()
	})
}
