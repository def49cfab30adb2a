package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/internal/kafkaconn"
)

// followInput follows one of the agent's Kafka inputs with cl, a *kgo.Client, until ctx ends
// (kafkaconn.Follow), handing each poll of up to max records to each; a poll of errors only is
// not handed on. An error is logged as "<what>: Kafka input" when its message changes and handed
// to fail (for /health) wrapped as "kafka input: …"; after a poll of errors only it waits a
// second. A refusal ends kafkaconn.Follow, reported so; the agent follows on a second later, as
// its publisher re-checks a refusal: a password or ACL fixed is taken without a restart.
func (a *Agent) followInput(ctx context.Context, cl kafkaconn.Poller, what string, max int, fail func(error), each func([]*kgo.Record)) {
	last := ""
	opts := kafkaconn.FollowOptions{MaxRecords: max, Pause: time.Second,
		OnError: func(topic string, p int32, err error) {
			if msg := err.Error(); msg != last {
				last = msg
				a.log.Error(what+": Kafka input", "topic", topic, "partition", p, "err", err)
			}
			fail(fmt.Errorf("kafka input: %w", err))
		}}
	for ctx.Err() == nil {
		err := kafkaconn.Follow(ctx, cl, opts, func(rs []*kgo.Record) error {
			if len(rs) > 0 {
				each(rs)
			}
			return nil
		})
		if err != nil { // a refusal, logged and failed by OnError
			sleepCtx(ctx, time.Second)
		}
	}
}
